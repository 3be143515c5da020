import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { membersQuery } from '../../api/queries';
import type { Board, Member, PendingInvite, Permission } from '../../api/types';
import { useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { PublicLinkSection } from '../public-link/PublicLinkSection';
import { changePermission, inviteTo, revoke, useKnownPeople, type Invitee, type KnownPerson } from './api';
import './sharing.css';

const MAX_SUGGESTIONS = 5;

type Removal = { kind: 'member'; member: Member } | { kind: 'pending'; pending: PendingInvite };

/** The board's members and pending invitations; invite a known person or an address with read or edit access (owner only). */
export function ShareDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const user = useUser();
  const ids = { who: useId(), hint: useId(), permission: useId(), suggest: useId(), pending: useId(), members: useId() };
  const members = useQuery(membersQuery(board.id));
  const known = useKnownPeople(board.id);
  const [text, setText] = useState('');
  const [permission, setPermissionChoice] = useState<Permission>('edit');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<Removal | null>(null);

  const memberIds = new Set(members.data?.members.map((m) => m.id));
  const query = text.trim().toLowerCase();
  const candidates = known.filter((p) => !memberIds.has(p.id));
  const suggestions = query.includes('@')
    ? []
    : candidates.filter((p) => p.name.toLowerCase().includes(query)).slice(0, MAX_SUGGESTIONS);

  const run = async (work: () => Promise<void>, done?: string) => {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      await work();
      if (done) setStatus(done);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const inviteWho = async (who: Invitee, label: string) => {
    const ok = await run(() => inviteTo(qc, board.id, who, permission), t('sharing.invited', { who: label }));
    if (ok) setText('');
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !query) return;
    if (query.includes('@')) return void inviteWho({ mail: text.trim() }, text.trim());
    const exact = candidates.filter((p) => p.name.toLowerCase() === query);
    const pick: KnownPerson | undefined = exact.length === 1 ? exact[0] : suggestions.length === 1 ? suggestions[0] : undefined;
    if (pick) return void inviteWho({ userId: pick.id }, pick.name);
    setError(t('sharing.pickOrMail'));
  };

  const confirmRemoval = () => {
    const target = removing;
    setRemoving(null);
    if (!target) return;
    if (target.kind === 'member')
      void run(() => revoke(qc, board.id, { userId: target.member.id }), t('sharing.removed', { name: target.member.name }));
    else
      void run(() => revoke(qc, board.id, { mail: target.pending.mail }), t('sharing.withdrawn', { email: target.pending.mail }));
  };

  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const permissionName = (p: Permission) => (p === 'edit' ? t('sharing.canEdit') : t('sharing.canRead'));

  return (
    <Dialog title={t('sharing.title', { name: board.name })} onClose={onClose} className="sharing-dialog">
      <form className="sharing-form" onSubmit={submit} noValidate>
        <label className="sharing-label" htmlFor={ids.who}>
          {t('sharing.who')}
        </label>
        <div className="sharing-invite">
          <input
            id={ids.who}
            className="input"
            type="text"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('sharing.whoPlaceholder')}
            aria-describedby={ids.hint}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            data-autofocus
          />
          <label className="visually-hidden" htmlFor={ids.permission}>
            {t('sharing.permission')}
          </label>
          <select
            id={ids.permission}
            className="select sharing-select"
            value={permission}
            onChange={(e) => setPermissionChoice(e.target.value as Permission)}
          >
            <option value="edit">{t('sharing.canEdit')}</option>
            <option value="read">{t('sharing.canRead')}</option>
          </select>
          <button type="submit" className="btn btn-primary" disabled={busy || !query}>
            {t('sharing.invite')}
          </button>
        </div>
        <p className="hint" id={ids.hint}>
          {t('sharing.hint')}
        </p>
        {suggestions.length > 0 && (
          <div className="sharing-suggest">
            <p className="sharing-subheading" id={ids.suggest}>
              {t('sharing.known')}
            </p>
            <ul className="sharing-people" aria-labelledby={ids.suggest}>
              {suggestions.map((person) => (
                <li key={person.id}>
                  <button
                    type="button"
                    className="sharing-person"
                    disabled={busy}
                    aria-label={t('sharing.invitePerson', { name: person.name, permission: permissionName(permission) })}
                    onClick={() => void inviteWho({ userId: person.id }, person.name)}
                  >
                    <Avatar person={person} />
                    <span className="sharing-person-name">{person.name}</span>
                    <Icon name="plus" size={16} />
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {error && (
          <p className="form-error sharing-error" role="alert">
            {error}
          </p>
        )}
        <p className="visually-hidden" role="status">
          {status}
        </p>
      </form>

      <h3 className="sharing-heading" id={ids.members}>
        {t('sharing.members')}
      </h3>
      {members.isPending ? (
        <div className="center-fill">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : members.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(members.error)}
        </p>
      ) : (
        <>
          <ul className="sharing-list" aria-labelledby={ids.members}>
            <li className="sharing-row">
              <Avatar person={user} size="lg" />
              <span className="sharing-name">
                {user.name}
                <small>{t('sharing.you')}</small>
              </span>
              <span className="sharing-role">{t('sharing.owner')}</span>
            </li>
            {members.data.members.map((member) => (
              <li key={member.id} className="sharing-row" data-member-id={member.id}>
                <Avatar person={member} size="lg" />
                <span className="sharing-name">{member.name}</span>
                <select
                  className="select sharing-select"
                  aria-label={t('sharing.permissionOf', { name: member.name })}
                  value={member.permission}
                  disabled={busy}
                  onChange={(e) => {
                    const next = e.target.value as Permission;
                    void run(
                      () => changePermission(qc, board.id, member.id, next),
                      t('sharing.changed', { name: member.name, permission: permissionName(next) }),
                    );
                  }}
                >
                  <option value="edit">{t('sharing.canEdit')}</option>
                  <option value="read">{t('sharing.canRead')}</option>
                </select>
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={t('sharing.remove', { name: member.name })}
                  disabled={busy}
                  onClick={() => setRemoving({ kind: 'member', member })}
                >
                  <Icon name="trash" />
                </button>
              </li>
            ))}
          </ul>
          {members.data.members.length === 0 && <p className="hint sharing-nobody">{t('sharing.nobody')}</p>}

          {members.data.pending.length > 0 && (
            <>
              <h3 className="sharing-heading" id={ids.pending}>
                {t('sharing.pending')}
              </h3>
              <ul className="sharing-list" aria-labelledby={ids.pending}>
                {members.data.pending.map((pending) => (
                  <li key={pending.mail} className="sharing-row" data-pending={pending.mail}>
                    <span className="avatar avatar-lg sharing-pending-avatar" aria-hidden="true">
                      @
                    </span>
                    <span className="sharing-name">
                      <span className="sharing-mail">{pending.mail}</span>
                      <small>
                        {t('sharing.invitedOn', {
                          date: date.format(new Date(pending.createdAt)),
                          permission: permissionName(pending.permission),
                        })}
                      </small>
                    </span>
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={t('sharing.withdraw', { email: pending.mail })}
                      disabled={busy}
                      onClick={() => setRemoving({ kind: 'pending', pending })}
                    >
                      <Icon name="close" />
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}

      <PublicLinkSection boardId={board.id} />

      {removing && (
        <ConfirmDialog
          title={
            removing.kind === 'member'
              ? t('sharing.removeTitle', { name: removing.member.name })
              : t('sharing.withdrawTitle', { email: removing.pending.mail })
          }
          message={removing.kind === 'member' ? t('sharing.removeText', { board: board.name }) : t('sharing.withdrawText')}
          confirmLabel={removing.kind === 'member' ? t('sharing.removeConfirm') : t('sharing.withdrawConfirm')}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={confirmRemoval}
        />
      )}
    </Dialog>
  );
}
