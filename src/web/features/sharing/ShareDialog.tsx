import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { invite, removeAccess, setPermission } from '../../api/mutations';
import { membersQuery } from '../../api/queries';
import type { Board, Permission } from '../../api/types';
import { toast } from '../../app/toast';
import { Avatar } from '../../components/Avatar';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';

/** The board's members and pending invitations; invite an address with read or edit access (owner only). */
export function ShareDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const members = useQuery(membersQuery(board.id));
  const [mail, setMail] = useState('');
  const [permission, setPermissionChoice] = useState<Permission>('edit');
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const address = mail.trim();
    if (!address || busy) return;
    setBusy(true);
    const ok = await invite(qc, board.id, address, permission);
    setBusy(false);
    if (ok) {
      setMail('');
      toast.info(t('share.invited', { email: address }));
    }
  };

  return (
    <Dialog title={t('share.title', { name: board.name })} onClose={onClose}>
      <form className="share-form" onSubmit={(e) => void submit(e)}>
        <label className="visually-hidden" htmlFor="share-mail">
          {t('share.email')}
        </label>
        <input
          id="share-mail"
          className="input"
          type="email"
          placeholder={t('share.emailPlaceholder')}
          value={mail}
          onChange={(e) => setMail(e.target.value)}
          required
          data-autofocus
        />
        <label className="visually-hidden" htmlFor="share-permission">
          {t('share.permission')}
        </label>
        <select
          id="share-permission"
          className="select share-select"
          value={permission}
          onChange={(e) => setPermissionChoice(e.target.value as Permission)}
        >
          <option value="edit">{t('share.canEdit')}</option>
          <option value="read">{t('share.canRead')}</option>
        </select>
        <button type="submit" className="btn btn-primary" disabled={busy || !mail.trim()}>
          {t('share.invite')}
        </button>
      </form>
      <p className="hint share-hint">{t('share.hint')}</p>

      <h3 className="share-heading">{t('share.members')}</h3>
      {members.isPending ? (
        <div className="spinner" />
      ) : (
        <ul className="member-list">
          {members.data?.members.length === 0 && members.data.pending.length === 0 && (
            <li className="hint">{t('share.nobody')}</li>
          )}
          {members.data?.members.map((member) => (
            <li key={member.id} className="member-row">
              <Avatar person={member} size="lg" />
              <span className="member-name">{member.name}</span>
              <select
                className="select share-select"
                aria-label={t('share.permissionOf', { name: member.name })}
                value={member.permission}
                onChange={(e) => void setPermission(qc, board.id, member.id, e.target.value as Permission)}
              >
                <option value="edit">{t('share.canEdit')}</option>
                <option value="read">{t('share.canRead')}</option>
              </select>
              <button
                type="button"
                className="icon-btn"
                aria-label={t('share.remove', { name: member.name })}
                onClick={() => void removeAccess(qc, board.id, { userId: member.id })}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
          {members.data?.pending.map((pending) => (
            <li key={pending.mail} className="member-row">
              <span className="avatar avatar-lg avatar-pending" aria-hidden="true">
                @
              </span>
              <span className="member-name">
                {pending.mail}
                <small>{t('share.pending')}</small>
              </span>
              <span className="member-permission">{pending.permission === 'edit' ? t('share.canEdit') : t('share.canRead')}</span>
              <button
                type="button"
                className="icon-btn"
                aria-label={t('share.cancelInvite', { email: pending.mail })}
                onClick={() => void removeAccess(qc, board.id, { mail: pending.mail })}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
