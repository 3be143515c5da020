import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { Icon } from '../../components/Icon';
import { BoardImport } from '../exports/BoardImport';
import { InstanceExport } from '../exports/InstanceExport';
import { AccountsSection } from './AccountsSection';
import { MailSection } from './MailSection';
import './admin.css';

/** Administration: the instance's accounts, its export, and board import. Administrators only. */
export function AdminPage() {
  const { t } = useTranslation();
  const user = useUser();
  const admin = (user.role ?? '').split(',').includes('admin');

  if (!admin) {
    return (
      <div className="admin">
        <div className="admin-inner admin-denied">
          <Icon name="lock" size={32} />
          <h1>{t('admin.denied.title')}</h1>
          <p>{t('admin.denied.text')}</p>
          <Link to="/" className="btn">
            {t('admin.denied.home')}
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="admin">
      <div className="admin-inner">
        <h1 className="admin-title">
          <Icon name="shield" />
          {t('admin.title')}
        </h1>
        <AccountsSection />
        <MailSection />
        <div className="admin-grid">
          <InstanceExport />
          <BoardImport />
        </div>
      </div>
    </div>
  );
}
