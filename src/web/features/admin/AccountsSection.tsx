import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../app/session';
import { toast } from '../../app/toast';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import {
  adminKeys,
  PAGE_SIZE,
  removeAccount,
  resendVerification,
  setRole,
  usersQuery,
  verifyAccount,
  type AdminUser,
} from './api';
import { CreateAccountDialog } from './CreateAccountDialog';
import { adminErrorMessage } from './errors';

const isAdmin = (user: AdminUser) => (user.role ?? '').split(',').includes('admin');

/** What was typed, once typing has paused. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Every account of the instance: search, create, make or unmake administrator, delete. */
export function AccountsSection() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  // The page belongs to the search it was turned for: a new search starts at the first page.
  const [paged, setPaged] = useState({ query, offset: 0 });
  const offset = paged.query === query ? paged.offset : 0;
  const setOffset = (next: number) => setPaged({ query, offset: next });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const users = useQuery(usersQuery(query, offset));

  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.all });

  const roleChange = useMutation({
    mutationFn: ({ user, role }: { user: AdminUser; role: 'user' | 'admin' }) => setRole(user.id, role),
    onSuccess: (_result, { user, role }) =>
      toast.info(
        role === 'admin' ? t('admin.accounts.madeAdmin', { name: user.name }) : t('admin.accounts.madeUser', { name: user.name }),
      ),
    onError: (error) => toast.error(adminErrorMessage(error)),
    onSettled: refresh,
  });

  const removal = useMutation({
    mutationFn: (user: AdminUser) => removeAccount(user.id),
    onSuccess: (_result, user) => toast.info(t('admin.accounts.deleted', { name: user.name })),
    onError: (error) => toast.error(adminErrorMessage(error)),
    onSettled: refresh,
  });

  const verification = useMutation({
    mutationFn: ({ user, action }: { user: AdminUser; action: 'confirm' | 'resend' }) =>
      action === 'confirm' ? verifyAccount(user.id) : resendVerification(user.id),
    onSuccess: (_result, { user, action }) =>
      toast.info(
        action === 'confirm'
          ? t('admin.accounts.confirmedNotice', { name: user.name })
          : t('admin.accounts.resentNotice', { email: user.email }),
      ),
    onError: (error) => toast.error(adminErrorMessage(error)),
    onSettled: refresh,
  });

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const total = users.data?.total ?? 0;
  const list = users.data?.users ?? [];
  const busyId = roleChange.isPending
    ? roleChange.variables.user.id
    : removal.isPending
      ? removal.variables.id
      : verification.isPending
        ? verification.variables.user.id
        : null;

  return (
    <section className="admin-card" aria-labelledby="accounts-title">
      <div className="admin-card-heading">
        <h2 id="accounts-title">{t('admin.accounts.title')}</h2>
        {users.data && (
          <span className="hint" aria-live="polite">
            {t('admin.accounts.count', { count: total })}
          </span>
        )}
        <div className="spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          <Icon name="plus" size={16} />
          {t('admin.accounts.create')}
        </button>
      </div>

      <div className="admin-search">
        <label htmlFor="account-search" className="visually-hidden">
          {t('admin.accounts.search')}
        </label>
        <input
          id="account-search"
          className="input"
          type="search"
          placeholder={t('admin.accounts.searchPlaceholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>

      {users.isPending ? (
        <div className="center-fill admin-loading">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : users.isError ? (
        <p className="form-error" role="alert">
          {adminErrorMessage(users.error)}
        </p>
      ) : list.length === 0 ? (
        <p className="empty">{query ? t('admin.accounts.noMatch', { query }) : t('admin.accounts.none')}</p>
      ) : (
        <table className="accounts-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.accounts.name')}</th>
              <th scope="col">{t('admin.accounts.email')}</th>
              <th scope="col">{t('admin.accounts.address')}</th>
              <th scope="col">{t('admin.accounts.role')}</th>
              <th scope="col">{t('admin.accounts.created')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('admin.accounts.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((user) => {
              const self = user.id === me.id;
              const admin = isAdmin(user);
              const hintId = `account-self-${user.id}`;
              const busy = busyId === user.id;
              return (
                <tr key={user.id} data-account-id={user.id}>
                  <td>
                    <div className="account-name">
                      <Avatar person={{ id: user.id, name: user.name, image: user.image ?? null }} />
                      <span>
                        {user.name}
                        {self && <span className="account-you">{t('admin.accounts.you')}</span>}
                      </span>
                    </div>
                  </td>
                  <td className="account-email" data-label={t('admin.accounts.email')}>
                    {user.email}
                  </td>
                  <td data-label={t('admin.accounts.address')}>
                    <div className="account-address">
                      <span className={`address-chip${user.emailVerified ? ' address-confirmed' : ''}`}>
                        <Icon name={user.emailVerified ? 'check' : 'clock'} size={14} />
                        {user.emailVerified ? t('admin.accounts.confirmed') : t('admin.accounts.unconfirmed')}
                      </span>
                      {!user.emailVerified && (
                        <span className="row">
                          <button
                            type="button"
                            className="btn btn-sm"
                            disabled={busy}
                            onClick={() => verification.mutate({ user, action: 'confirm' })}
                          >
                            {t('admin.accounts.confirm')}
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm"
                            disabled={busy}
                            onClick={() => verification.mutate({ user, action: 'resend' })}
                          >
                            {t('admin.accounts.resend')}
                          </button>
                        </span>
                      )}
                    </div>
                  </td>
                  <td data-label={t('admin.accounts.role')}>
                    <span className={`role-chip${admin ? ' role-admin' : ''}`}>
                      {admin && <Icon name="shield" size={14} />}
                      {admin ? t('admin.roles.admin') : t('admin.roles.user')}
                    </span>
                  </td>
                  <td data-label={t('admin.accounts.created')}>
                    <time dateTime={user.createdAt}>{dateFormat.format(new Date(user.createdAt))}</time>
                  </td>
                  <td className="account-actions">
                    <div className="row">
                      <button
                        type="button"
                        className="btn btn-sm"
                        disabled={self || busy}
                        aria-describedby={self ? hintId : undefined}
                        onClick={() => roleChange.mutate({ user, role: admin ? 'user' : 'admin' })}
                      >
                        <Icon name={admin ? 'user' : 'shield'} size={14} />
                        {admin ? t('admin.accounts.removeAdmin') : t('admin.accounts.makeAdmin')}
                      </button>
                      <button
                        type="button"
                        className="icon-btn account-delete"
                        disabled={self || busy}
                        aria-label={t('admin.accounts.delete', { name: user.name })}
                        aria-describedby={self ? hintId : undefined}
                        onClick={() => setDeleting(user)}
                      >
                        <Icon name="trash" size={16} />
                      </button>
                    </div>
                    {self && (
                      <p id={hintId} className="hint">
                        {t('admin.accounts.selfHint')}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      {total > PAGE_SIZE && (
        <nav className="admin-pager row" aria-label={t('admin.accounts.pages')}>
          <button
            type="button"
            className="btn btn-sm"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            {t('admin.accounts.previous')}
          </button>
          <span className="hint">
            {t('admin.accounts.range', {
              from: offset + 1,
              to: Math.min(total, offset + PAGE_SIZE),
              total,
            })}
          </span>
          <button
            type="button"
            className="btn btn-sm"
            disabled={offset + PAGE_SIZE >= total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            {t('admin.accounts.next')}
          </button>
        </nav>
      )}

      {creating && (
        <CreateAccountDialog
          onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            toast.info(t('admin.accounts.createdNotice', { name: user.name }));
            void refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('admin.delete.title', { name: deleting.name })}
          message={t('admin.delete.text', { email: deleting.email })}
          confirmLabel={t('admin.delete.confirm')}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            removal.mutate(deleting);
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}
