import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { api, ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { InvitationInfo } from '../../api/types';
import i18n from '../../app/i18n';
import { refreshSession, signOut, useSession } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { SingleSignOn, useSignInOptions } from './SingleSignOn';
import { NewPasswordField } from './PasswordField';
import { field, useSubmit } from './useSubmit';

/**
 * `/invite/:token`: what the link is for (board and address); a new account
 * from a name and a password, or — signed in as the invited address — straight
 * onto the board. A used or expired link says so plainly.
 */
export function InvitePage() {
  const { token = '' } = useParams();
  const { t } = useTranslation();
  const { data: session, isPending: sessionPending } = useSession();
  // Set once this page has used the link, so that the new session does not make it try again.
  const [acceptedBoard, setAcceptedBoard] = useState<number | null>(null);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api<InvitationInfo>(`/api/invitations/${encodeURIComponent(token)}`),
    retry: false,
    staleTime: Infinity,
  });

  if (acceptedBoard !== null && session) return <Navigate to={`/board/${acceptedBoard}`} replace />;
  if (invitation.isPending || sessionPending || acceptedBoard !== null) return <div className="center-fill" aria-busy="true" />;
  if (invitation.isError || !invitation.data) return <Refused />;
  const info = invitation.data;
  if (session && session.user.email.toLowerCase() === info.email.toLowerCase()) return <Join token={token} info={info} />;
  if (session) return <OtherAccount info={info} signedInAs={session.user.email} />;
  return (
    <AuthFrame title={t('invite.title')} subtitle={t('invite.subtitle')}>
      <InviteFacts info={info} />
      <CreateAccount token={token} info={info} onAccepted={setAcceptedBoard} />
    </AuthFrame>
  );
}

function InviteFacts({ info }: { info: InvitationInfo }) {
  const { t } = useTranslation();
  return (
    <div className="auth-fact">
      <strong>{info.boardName}</strong>
      <span>{t('invite.forAddress', { email: info.email })}</span>
      <span>{info.permission === 'edit' ? t('invite.canEdit') : t('invite.canRead')}</span>
    </div>
  );
}

function CreateAccount({
  token,
  info,
  onAccepted,
}: {
  token: string;
  info: InvitationInfo;
  onAccepted: (boardId: number) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data: options } = useSignInOptions();
  const { busy, error, onSubmit } = useSubmit(
    async (form) => {
      const { boardId } = await api<{ boardId: number }>(`/api/invitations/${encodeURIComponent(token)}/accept`, {
        method: 'POST',
        body: { name: field(form, 'name').trim(), password: field(form, 'password') },
      });
      onAccepted(boardId);
      await refreshSession(qc);
    },
    (e) => (e instanceof ApiError && e.status === 409 ? i18n.t('invite.accountExists') : errorMessage(e)),
  );
  // Single sign-on only: the invitee signs in through the provider and comes back here to join.
  if (options?.password === false) return <SingleSignOn next={`/invite/${token}`} />;
  return (
    <form onSubmit={onSubmit}>
      {error && (
        <div className="form-error" role="alert">
          {error} <Link to={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`}>{t('auth.signIn')}</Link>
        </div>
      )}
      <label className="field">
        <span>{t('auth.email')}</span>
        <input className="input" value={info.email} readOnly aria-readonly="true" />
      </label>
      <label className="field">
        <span>{t('auth.name')}</span>
        <input className="input" name="name" autoComplete="name" required maxLength={255} autoFocus />
      </label>
      <NewPasswordField label={t('auth.password')} />
      <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
        {t('invite.accept')}
      </button>
      <div className="auth-links">
        <span />
        <Link to={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`}>{t('invite.haveAccount')}</Link>
      </div>
    </form>
  );
}

/** Signed in as the invited address: join at once and go to the board. */
function Join({ token, info }: { token: string; info: InvitationInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const started = useRef(false);
  const { error, onSubmit, busy } = useSubmit(async () => {
    const { boardId } = await api<{ boardId: number }>(`/api/invitations/${encodeURIComponent(token)}/accept`, {
      method: 'POST',
      body: {},
    });
    await qc.invalidateQueries({ queryKey: ['boards'] });
    // Using the link verified the address: the banner asking for it goes.
    await refreshSession(qc);
    void navigate(`/board/${boardId}`, { replace: true });
  });
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    formRef.current?.requestSubmit();
  }, []);
  return (
    <AuthFrame title={t('invite.joining')}>
      <InviteFacts info={info} />
      <form ref={formRef} onSubmit={onSubmit}>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {t('invite.join')}
        </button>
      </form>
    </AuthFrame>
  );
}

function OtherAccount({ info, signedInAs }: { info: InvitationInfo; signedInAs: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <AuthFrame title={t('invite.title')}>
      <InviteFacts info={info} />
      <p className="auth-text">{t('invite.otherAccount', { current: signedInAs, email: info.email })}</p>
      <button type="button" className="btn btn-primary btn-block" onClick={() => void signOut(qc)}>
        {t('invite.switchAccount')}
      </button>
    </AuthFrame>
  );
}

function Refused() {
  const { t } = useTranslation();
  return (
    <AuthFrame title={t('invite.invalidTitle')}>
      <p className="auth-text">{t('invite.invalidText')}</p>
      <Link className="btn btn-primary btn-block" to="/">
        {t('notFound.home')}
      </Link>
    </AuthFrame>
  );
}
