import i18n from '../../app/i18n';
import { AdminError } from './api';

/** A refusal of the admin endpoints in words. */
export function adminErrorMessage(error: unknown): string {
  if (!(error instanceof AdminError)) return i18n.t('errors.unexpected');
  if (error.status === 0) return i18n.t('errors.network');
  // better-auth's code when it came through, else its (English, fixed) message.
  const is = (code: string, message: string) => error.code === code || error.message.startsWith(message);
  if (is('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 'User already exists')) return i18n.t('admin.errors.exists');
  if (is('PASSWORD_TOO_SHORT', 'Password too short')) return i18n.t('admin.errors.passwordShort');
  if (is('PASSWORD_TOO_LONG', 'Password too long')) return i18n.t('admin.errors.passwordLong');
  if (is('INVALID_EMAIL', 'Invalid email')) return i18n.t('admin.errors.invalidEmail');
  if (error.status === 401 || error.status === 403) return i18n.t('errors.forbidden');
  if (error.status === 404) return i18n.t('errors.notFound');
  if (error.status === 429) return i18n.t('errors.rateLimited');
  if (error.status >= 500) return i18n.t('errors.server');
  return error.message || i18n.t('errors.unexpected');
}
