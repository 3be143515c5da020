import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { SignInOptions } from '../../api/types';

/** How this instance lets people in (password, sign-up, a single sign-on provider); fixed while it runs. */
export function useSignInOptions() {
  return useQuery({
    queryKey: ['sign-in-options'],
    queryFn: () => api<SignInOptions>('/api/sign-in-options'),
    staleTime: Infinity,
  });
}

/** What the provider round trip reports back in `?error=`, in words. */
export function useSsoError(code: string | null): string | null {
  const { t } = useTranslation();
  const { data } = useSignInOptions();
  if (!code || !data?.sso) return null;
  const name = data.sso.name;
  if (code === 'email_not_verified') return t('sso.emailNotVerified', { name });
  if (code === 'account_not_linked') return t('sso.accountNotLinked', { name });
  if (code === 'signup_disabled') return t('sso.signupClosed', { name });
  return t('sso.failed', { name });
}

/**
 * "Sign in with <provider>": better-auth answers the provider's address (with
 * state and PKCE kept in a cookie), and the browser goes there.
 */
export function SingleSignOn({ next }: { next: string }) {
  const { t } = useTranslation();
  const { data } = useSignInOptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!data?.sso) return null;
  const name = data.sso.name;

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api<{ url: string }>('/api/auth/sign-in/social', {
        method: 'POST',
        body: { provider: 'oidc', callbackURL: next, errorCallbackURL: '/sign-in' },
      });
      window.location.assign(url);
    } catch {
      setError(t('sso.unavailable', { name }));
      setBusy(false);
    }
  };

  return (
    <div className="sso">
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <button className="btn btn-block sso-button" type="button" onClick={() => void start()} disabled={busy}>
        {t('sso.button', { name })}
      </button>
      {data.password && (
        <div className="sso-or" aria-hidden="true">
          <span>{t('sso.or')}</span>
        </div>
      )}
    </div>
  );
}
