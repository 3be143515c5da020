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

  const status = sending === 'sent' ? t('verifyAddress.sent') : sending === 'failed' ? t('verifyAddress.failed') : '';
  // On a phone, one line: the short words (the address cut short if need be) and a short button.
  return (
    <section className="banner verify-banner" aria-label={t('verifyAddress.label')}>
      <span className="verify-long">{t('verifyAddress.text', { email: user.email })}</span>
      <span className="verify-short" title={t('verifyAddress.text', { email: user.email })}>
        {t('verifyAddress.short', { email: user.email })}
      </span>
      <button className="btn btn-sm" type="button" onClick={() => void resend()} disabled={sending === 'busy'}>
        {sending === 'busy' ? (
          t('verifyAddress.sending')
        ) : (
          <>
            <span className="verify-long">{t('verifyAddress.resend')}</span>
            <span className="verify-short">{t('verifyAddress.resendShort')}</span>
          </>
        )}
      </button>
      <span role="status" className={status ? 'verify-status' : 'verify-status verify-status-empty'}>
        {status}
      </span>
    </section>
  );
}
