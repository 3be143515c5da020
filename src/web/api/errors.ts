import i18n from '../app/i18n';
import { ApiError } from './client';

/** A refusal in words a person understands; the server's own text when nothing better fits. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return i18n.t('errors.unexpected');
  if (error.status === 0) return i18n.t('errors.network');
  if (error.message === 'TOO_MANY_LABELS') return i18n.t('errors.tooManyLabels');
  if (error.status === 403) return i18n.t('errors.forbidden');
  if (error.status === 404) return i18n.t('errors.notFound');
  if (error.status === 409) return i18n.t('errors.conflict');
  if (error.status === 413) return i18n.t('errors.tooLarge');
  if (error.status === 429) return i18n.t('errors.rateLimited');
  if (error.status >= 500) return i18n.t('errors.server');
  return error.message || i18n.t('errors.unexpected');
}
