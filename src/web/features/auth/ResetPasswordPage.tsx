import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { AuthFrame } from './AuthFrame';
import { NewPasswordField } from './PasswordField';
import { field, useSubmit } from './useSubmit';

/**
 * Both halves of a reset: without a token, ask for the address (the mail's
 * link comes back here with `?token=`); with one, choose the new password.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (params.get('error')) return <InvalidLink />;
  return token ? <ChoosePassword token={token} /> : <RequestLink />;
}

function RequestLink() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async (form) => {
    await api('/api/auth/request-password-reset', {
      method: 'POST',
      body: { email: field(form, 'email').trim(), redirectTo: '/reset-password' },
    });
    setSent(true);
  });
  return (
    <AuthFrame title={t('auth.resetTitle')} subtitle={t('auth.resetSubtitle')}>
      {sent ? (
        <div className="form-note" role="status">
          {t('auth.resetSent')}
        </div>
      ) : (
        <form onSubmit={onSubmit}>
          {error && (
            <div className="form-error" role="alert">
              {error}
            </div>
          )}
          <label className="field">
            <span>{t('auth.email')}</span>
            <input className="input" name="email" type="email" autoComplete="email" required autoFocus />
          </label>
          <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
            {t('auth.sendLink')}
          </button>
        </form>
      )}
      <div className="auth-links">
        <span />
        <Link to="/sign-in">{t('auth.backToSignIn')}</Link>
      </div>
    </AuthFrame>
  );
}

function ChoosePassword({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { busy, error, onSubmit } = useSubmit(async (form, refuse) => {
    const password = field(form, 'password');
    if (password !== field(form, 'confirm')) {
      refuse(t('auth.passwordsDiffer'));
      return;
    }
    await api('/api/auth/reset-password', { method: 'POST', body: { newPassword: password, token } });
    void navigate('/sign-in?reset=1', { replace: true });
  });
  return (
    <AuthFrame title={t('auth.newPasswordTitle')}>
      <form onSubmit={onSubmit}>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <NewPasswordField label={t('auth.newPassword')} autoFocus />
        <label className="field">
          <span>{t('auth.confirmPassword')}</span>
          <input className="input" name="confirm" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {t('auth.savePassword')}
        </button>
      </form>
    </AuthFrame>
  );
}

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <AuthFrame title={t('auth.linkInvalidTitle')}>
      <p className="auth-text">{t('auth.linkInvalidText')}</p>
      <Link className="btn btn-primary btn-block" to="/reset-password">
        {t('auth.requestNewLink')}
      </Link>
    </AuthFrame>
  );
}
