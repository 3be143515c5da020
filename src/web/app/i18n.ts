import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en';

import { isLanguage, LANGUAGES, type Language } from './languages';

export { LANGUAGES, LANGUAGE_NAMES, type Language } from './languages';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

const loaders = import.meta.glob<{ default: Record<string, ResourceKey> }>(['../locales/*/*.json', '!../locales/en/*.json']);

/**
 * Reads the parts of `locales/<lng>/` on demand (a chunk per file, fetched
 * together) and joins them; each part holds its own top-level keys.
 */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const parts = Object.entries(loaders).filter(([file]) => file.startsWith(`../locales/${language}/`));
    Promise.all(parts.map(([, load]) => load())).then(
      (modules) => callback(null, Object.assign({}, ...modules.map((m) => m.default)) as ResourceKey),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

const STORAGE_KEY = 'tavla.language';

/**
 * The account's language (remembered from its last session here), else the
 * browser's first supported one, else the instance's (named by the server in the page).
 */
export function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(saved)) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  const instance = document.documentElement.dataset.instanceLanguage;
  return isLanguage(instance) ? instance : 'en';
}

export async function setLanguage(language: string | null | undefined): Promise<void> {
  if (!isLanguage(language) || language === i18n.language) return;
  localStorage.setItem(STORAGE_KEY, language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

void i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    lng: initialLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
document.documentElement.lang = i18n.language;

export default i18n;
