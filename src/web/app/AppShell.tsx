import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '../api/types';
import { Avatar } from '../components/Avatar';
import { MenuButton, MenuItem } from '../components/Menu';
import { useConnectionStatus } from '../realtime/RealtimeProvider';
import { useDashboardRealtime } from '../realtime/useDashboardRealtime';
import { useSignOut } from './session';
import './shell.css';

export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const status = useConnectionStatus();
  useDashboardRealtime(user.id);

  return (
    <div className="shell">
      <header className="shell-header">
        <Link to="/" className="shell-logo" aria-label={t('shell.home')}>
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>Tavla</span>
        </Link>
        <div className="spacer" />
        <div className="shell-user">
          <Avatar person={user} />
          <span className="shell-user-name">{user.name}</span>
          <MenuButton label={t('shell.account')} className="icon-btn">
            {(close) => (
              <MenuItem
                icon="logout"
                onSelect={() => {
                  close();
                  void signOut().then(() => navigate('/sign-in'));
                }}
              >
                {t('shell.signOut')}
              </MenuItem>
            )}
          </MenuButton>
        </div>
      </header>
      {status === 'offline' && (
        <div className="banner" role="status">
          <span className="spinner banner-spinner" aria-hidden="true" />
          {t('shell.offline')}
        </div>
      )}
      <main className="shell-main">{children}</main>
    </div>
  );
}
