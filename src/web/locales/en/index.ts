import core from './core.json';
import archive from './archive.json';
import sharing from './sharing.json';
import notifications from './notifications.json';
import search from './search.json';
import exports from './exports.json';
import settings from './settings.json';
import admin from './admin.json';
import sso from './sso.json';
import webhooks from './webhooks.json';
import templates from './templates.json';
import calendar from './calendar.json';
import publiclink from './publiclink.json';
import mywork from './mywork.json';
import teams from './teams.json';
import history from './history.json';
import fields from './fields.json';
import undo from './undo.json';
import lanes from './lanes.json';

/**
 * English, bundled. Each part is one file so that features own their words;
 * every other language has the same files (`locales/<lng>/<part>.json`),
 * which `locales.test.ts` checks key by key.
 */
const en = {
  ...core,
  ...archive,
  ...sharing,
  ...notifications,
  ...search,
  ...exports,
  ...settings,
  ...admin,
  ...sso,
  ...webhooks,
  ...templates,
  ...calendar,
  ...publiclink,
  ...mywork,
  ...teams,
  ...history,
  ...fields,
  ...undo,
  ...lanes,
};
export default en;
