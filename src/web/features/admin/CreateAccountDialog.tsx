import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { NewPasswordField } from '../auth/PasswordField';
import { field, useSubmit } from '../auth/useSubmit';
import { createAccount, type AdminUser } from './api';
import { adminErrorMessage } from './errors';

/** A new account made by an administrator: name, address, first password and role. */
export function CreateAccountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (user: AdminUser) => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const { busy, error, onSubmit } = useSubmit(async (form) => {
    const role = field(form, 'role') === 'admin' ? 'admin' : 'user';
    const { user } = await createAccount({
      name: field(form, 'name').trim(),
      email: field(form, 'email').trim(),
      password: field(form, 'password'),
      role,
    });
    onCreated(user);
  }, adminErrorMessage);

  return (
    <Dialog
      title={t('admin.create.title')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? t('admin.create.creating') : t('admin.create.submit')}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit}>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <label className="field">
          <span>{t('admin.create.name')}</span>
          <input className="input" name="name" autoComplete="off" required maxLength={255} data-autofocus />
        </label>
        <label className="field">
          <span>{t('admin.create.email')}</span>
          <input className="input" name="email" type="email" autoComplete="off" required />
        </label>
        <NewPasswordField label={t('admin.create.password')} />
        <label className="field">
          <span>{t('admin.create.role')}</span>
          <select className="select" name="role" defaultValue="user">
            <option value="user">{t('admin.roles.user')}</option>
            <option value="admin">{t('admin.roles.admin')}</option>
          </select>
        </label>
      </form>
    </Dialog>
  );
}
