export { samlPlugin, sameOriginCallback, identityFrom } from './plugin.js';
export { acceptSamlPosts } from './http.js';
export {
  samlAcsUrl,
  samlEntityId,
  type SamlAdmit,
  type SamlIdentity,
  type SamlPluginOptions,
  type SamlProviderSettings,
} from './settings.js';
