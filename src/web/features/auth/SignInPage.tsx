import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import i18n from '../../app/i18n';
import { refreshSession, useSession } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { SingleSignOn, useSignInOptions, useSsoError } from './SingleSignOn';
import { field, useSubmit } from './useSubmit';

/** Only addresses inside the app count as a place to return to. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { data: session } = useSession();
  const { data: options } = useSignInOptions();
  const ssoError = useSsoError(params.get('error'));
  const { busy, error, onSubmit } = useSubmit(
    async (form) => {
      await api('/api/auth/sign-in/email', {
        method: 'POST',
        body: { email: field(form, 'email'), password: field(form, 'password') },
      });
      await refreshSession(qc);
      void navigate(next, { replace: true });
    },
    (e) => (e instanceof ApiError && e.status === 401 ? i18n.t('auth.wrongPassword') : errorMessage(e)),
  );
  if (session) return <Navigate to={next} replace />;

  return (
    <AuthFrame title={t('auth.signInTitle')} subtitle={t('auth.signInSubtitle')}>
      {ssoError && (
        <div className="form-error" role="alert">
          {ssoError}
        </div>
      )}
      <SingleSignOn next={next} />
      {options?.password !== false && (
        <>
          <form onSubmit={onSubmit}>
            {params.get('reset') && !error && (
              <div className="form-note" role="status">
                {t('auth.passwordChanged')}
              </div>
            )}
            {error && (
              <div className="form-error" role="alert">
                {error}
              </div>
            )}
            <label className="field">
              <span>{t('auth.email')}</span>
              <input className="input" name="email" type="email" autoComplete="email" required autoFocus />
            </label>
            <label className="field">
              <span>{t('auth.password')}</span>
              <input className="input" name="password" type="password" autoComplete="current-password" required />
            </label>
            <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
              {busy ? t('auth.signingIn') : t('auth.signIn')}
            </button>
          </form>
          <div className="auth-links">
            <Link to="/reset-password">{t('auth.forgot')}</Link>
            {options?.signup !== false && (
              <Link to={`/sign-up${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>{t('auth.noAccount')}</Link>
            )}
          </div>
        </>
      )}
    </AuthFrame>
  );
}
