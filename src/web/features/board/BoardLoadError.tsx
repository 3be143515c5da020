import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';

/** A board page that could not load: "not found" when the board is gone or not ours to see, else a failure to retry. */
export function BoardLoadError({ error, className }: { error: unknown; className: string }) {
  const { t } = useTranslation();
  const missing = error instanceof ApiError && (error.status === 404 || error.status === 403);
  return (
    <div className={className}>
      <h1>{missing ? t('board.notFoundTitle') : t('errors.loadFailed')}</h1>
      <p>{missing ? t('board.notFoundText') : t('errors.tryAgain')}</p>
      <Link to="/" className="btn btn-primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}
