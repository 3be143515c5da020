import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { refreshSession, useSession } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { NewPasswordField } from './PasswordField';
import { safeNext } from './SignInPage';
import { SingleSignOn, useSignInOptions } from './SingleSignOn';
import { field, useSubmit } from './useSubmit';

export function SignUpPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { data: session } = useSession();
  const { data: options } = useSignInOptions();
  const { busy, error, onSubmit } = useSubmit(async (form) => {
    await api('/api/auth/sign-up/email', {
      method: 'POST',
      body: { name: field(form, 'name').trim(), email: field(form, 'email').trim(), password: field(form, 'password') },
    });
    await refreshSession(qc);
    void navigate(next, { replace: true });
  });
  if (session) return <Navigate to={next} replace />;
  if (options?.password === false)
    return <Navigate to={`/sign-in${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`} replace />;

  return (
    <AuthFrame title={t('auth.signUpTitle')} subtitle={t('auth.signUpSubtitle')}>
      <SingleSignOn next={next} />
      <form onSubmit={onSubmit}>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <label className="field">
          <span>{t('auth.name')}</span>
          <input className="input" name="name" autoComplete="name" required maxLength={255} autoFocus />
        </label>
        <label className="field">
          <span>{t('auth.email')}</span>
          <input className="input" name="email" type="email" autoComplete="email" required />
        </label>
        <NewPasswordField label={t('auth.password')} />
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {busy ? t('auth.creating') : t('auth.signUp')}
        </button>
      </form>
      <div className="auth-links">
        <span />
        <Link to="/sign-in">{t('auth.haveAccount')}</Link>
      </div>
    </AuthFrame>
  );
}
