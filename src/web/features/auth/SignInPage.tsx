import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { SsoRoute } from '../../api/types';
import i18n from '../../app/i18n';
import { refreshSession, useSession } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { SingleSignOn, useSignInOptions, useSsoError } from './SingleSignOn';
import { field, useSubmit } from './useSubmit';

/** Only addresses inside the app count as a place to return to. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * Sign-in. When a provider claims address domains (SSO_CONFIG), the page asks
 * for the address first: "Continue" goes to that domain's provider, and an
 * address no provider claims gets the password field (when passwords are on).
 */
export function SignInPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { data: session } = useSession();
  const { data: options } = useSignInOptions();
  const ssoError = useSsoError(params.get('error'), params.get('provider'));
  const passwords = options?.password !== false;
  const routing = options?.addressRouting === true;
  /** The address was asked for and no provider claims it: the password is asked for next. */
  const [passwordStep, setPasswordStep] = useState(false);
  const askPassword = passwords && (!routing || passwordStep);
  const { busy, error, onSubmit } = useSubmit(
    async (form, refuse) => {
      const email = field(form, 'email');
      if (!askPassword) {
        try {
          const { url } = await api<SsoRoute>('/api/sign-in/sso', { method: 'POST', body: { email, callbackURL: next } });
          window.location.assign(url);
          // Busy until the browser has left.
          await new Promise(() => undefined);
        } catch (e) {
          if (!(e instanceof ApiError && e.status === 404)) throw e;
          if (passwords) setPasswordStep(true);
          else refuse(t('sso.noProvider', { domain: email.split('@').pop() }));
        }
        return;
      }
      await api('/api/auth/sign-in/email', { method: 'POST', body: { email, password: field(form, 'password') } });
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
      {(passwords || routing) && (
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
            {routing && passwordStep && (
              <div className="form-note" role="status">
                {t('sso.usePassword')}
              </div>
            )}
            <label className="field">
              <span>{t('auth.email')}</span>
              <input
                className="input"
                name="email"
                type="email"
                autoComplete={askPassword ? 'email' : 'username'}
                required
                autoFocus={!passwordStep}
                onChange={routing && passwordStep ? () => setPasswordStep(false) : undefined}
              />
            </label>
            {askPassword && (
              <label className="field">
                <span>{t('auth.password')}</span>
                <input
                  className="input"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  autoFocus={passwordStep}
                />
              </label>
            )}
            <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
              {askPassword ? (busy ? t('auth.signingIn') : t('auth.signIn')) : busy ? t('sso.continuing') : t('sso.continue')}
            </button>
          </form>
          {passwords && (
            <div className="auth-links">
              <Link to="/reset-password">{t('auth.forgot')}</Link>
              {options?.signup !== false && (
                <Link to={`/sign-up${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>{t('auth.noAccount')}</Link>
              )}
            </div>
          )}
        </>
      )}
    </AuthFrame>
  );
}
