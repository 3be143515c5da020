import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { SignInOptions } from '../../api/types';

type Provider = SignInOptions['providers'][number];

/** How this instance lets people in (password, sign-up, single sign-on providers); fixed while it runs. */
export function useSignInOptions() {
  return useQuery({
    queryKey: ['sign-in-options'],
    queryFn: () => api<SignInOptions>('/api/sign-in-options'),
    staleTime: Infinity,
  });
}

/** The name the messages give a provider: the one in `?provider=`, else the only one (or the OIDC_* one). */
function providerName(data: SignInOptions, id: string | null): string | null {
  const named = data.providers.find((p) => p.id === id);
  if (named) return named.name;
  return data.sso?.name ?? (data.providers.length === 1 ? (data.providers[0]?.name ?? null) : null);
}

/** What the provider round trip reports back in `?error=` (and `?provider=`), in words. */
export function useSsoError(code: string | null, providerId: string | null): string | null {
  const { t } = useTranslation();
  const { data } = useSignInOptions();
  if (!code || !data || data.providers.length === 0) return null;
  const name = providerName(data, providerId) ?? t('sso.yourProvider');
  if (code === 'email_not_verified') return t('sso.emailNotVerified', { name });
  if (code === 'account_not_linked') return t('sso.accountNotLinked', { name });
  if (code === 'signup_disabled') return t('sso.signupClosed', { name });
  if (code === 'account_not_found') return t('sso.accountNotFound', { name });
  return t('sso.failed', { name });
}

/** Starts signing in with a provider's button: better-auth answers the OpenID provider's address; SAML starts on our server. */
async function startProvider(provider: Provider, next: string): Promise<string> {
  if (provider.type === 'saml') {
    return `/api/auth/saml/${provider.id}/login?${new URLSearchParams({ callbackURL: next }).toString()}`;
  }
  const { url } = await api<{ url: string }>('/api/auth/sign-in/social', {
    method: 'POST',
    // The legacy provider's refusals come back to /sign-in as they always did; the others name themselves.
    body: {
      provider: provider.id,
      callbackURL: next,
      errorCallbackURL: provider.id === 'oidc' ? '/sign-in' : `/sign-in?provider=${provider.id}`,
    },
  });
  return url;
}

/**
 * "Sign in with <provider>" for each provider that claims no address domain
 * (those that do are reached by the address, SignInPage): the browser goes
 * to the provider's page, state and PKCE kept in a cookie.
 */
export function SingleSignOn({ next }: { next: string }) {
  const { t } = useTranslation();
  const { data } = useSignInOptions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const buttons = data?.providers.filter((p) => !p.routed) ?? [];
  if (!data || buttons.length === 0) return null;

  const start = async (provider: Provider) => {
    setBusy(true);
    setError(null);
    try {
      window.location.assign(await startProvider(provider, next));
    } catch {
      setError(t('sso.unavailable', { name: provider.name }));
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
      {buttons.map((provider) => (
        <button
          key={provider.id}
          className="btn btn-block sso-button"
          type="button"
          onClick={() => void start(provider)}
          disabled={busy}
        >
          {t('sso.button', { name: provider.name })}
        </button>
      ))}
      {(data.password || data.addressRouting) && (
        <div className="sso-or" aria-hidden="true">
          <span>{t('sso.or')}</span>
        </div>
      )}
    </div>
  );
}
