import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { SessionUser } from '../../api/types';

type Sending = 'idle' | 'busy' | 'sent' | 'failed';

/**
 * Until the account's address is verified, invitations by address do not reach
 * it: says so, and mails the link again on request. The mailed link verifies
 * whenever it is opened and comes back to the app, where the banner is gone.
 */
export function VerifyAddressBanner({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const [sending, setSending] = useState<Sending>('idle');
  if (user.emailVerified !== false) return null;

  const resend = async () => {
    setSending('busy');
    try {
      await api('/api/auth/send-verification-email', { method: 'POST', body: { email: user.email, callbackURL: '/' } });
      setSending('sent');
    } catch {
      setSending('failed');
    }
  };

  return (
    <section className="banner verify-banner" aria-label={t('verifyAddress.label')}>
      <span>{t('verifyAddress.text', { email: user.email })}</span>
      <button className="btn btn-sm" type="button" onClick={() => void resend()} disabled={sending === 'busy'}>
        {sending === 'busy' ? t('verifyAddress.sending') : t('verifyAddress.resend')}
      </button>
      <span role="status">
        {sending === 'sent' ? t('verifyAddress.sent') : sending === 'failed' ? t('verifyAddress.failed') : ''}
      </span>
    </section>
  );
}
