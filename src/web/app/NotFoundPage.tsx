import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthFrame } from '../features/auth/AuthFrame';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <AuthFrame title={t('notFound.title')}>
      <p className="auth-text">{t('notFound.text')}</p>
      <Link className="btn btn-primary btn-block" to="/">
        {t('notFound.home')}
      </Link>
    </AuthFrame>
  );
}
