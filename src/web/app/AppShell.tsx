import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router';
import type { SessionUser } from '../api/types';
import { Avatar } from '../components/Avatar';
import { MenuButton, MenuItem, MenuSeparator } from '../components/Menu';
import { Icon, type IconName } from '../components/Icon';
import { useConnectionStatus } from '../realtime/RealtimeProvider';
import { useDashboardRealtime } from '../realtime/useDashboardRealtime';
import { GlobalSearch } from '../features/search/GlobalSearch';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { VerifyAddressBanner } from '../features/auth/VerifyAddressBanner';
import { setSchemePreference, useSchemePreference, type SchemePreference } from './colorScheme';
import { useSignOut } from './session';
import './shell.css';

const SCHEMES: [SchemePreference, IconName][] = [
  ['system', 'monitor'],
  ['light', 'sun'],
  ['dark', 'moon'],
];

export function AppShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const status = useConnectionStatus();
  const scheme = useSchemePreference();
  useDashboardRealtime(user.id);

  return (
    <div className="shell">
      <header className="shell-header">
        <Link to="/" className="shell-logo" aria-label={t('shell.home')}>
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>Tavla</span>
        </Link>
        <NavLink to="/my-work" className="shell-nav-link" aria-label={t('myWork.nav')} title={t('myWork.nav')}>
          <Icon name="checklist" size={18} />
          <span>{t('myWork.nav')}</span>
        </NavLink>
        <GlobalSearch />
        <div className="spacer" />
        <NotificationBell />
        <div className="shell-user">
          <Avatar person={user} />
          <span className="shell-user-name">{user.name}</span>
          <MenuButton label={t('shell.account')} className="icon-btn">
            {(close) => (
              <>
                <MenuItem
                  icon="settings"
                  onSelect={() => {
                    close();
                    void navigate('/settings');
                  }}
                >
                  {t('shell.settings')}
                </MenuItem>
                <MenuItem
                  icon="archive"
                  onSelect={() => {
                    close();
                    void navigate('/archive');
                  }}
                >
                  {t('shell.archivedBoards')}
                </MenuItem>
                {user.role === 'admin' && (
                  <MenuItem
                    icon="shield"
                    onSelect={() => {
                      close();
                      void navigate('/admin');
                    }}
                  >
                    {t('shell.admin')}
                  </MenuItem>
                )}
                <MenuSeparator />
                {SCHEMES.map(([value, icon]) => (
                  <MenuItem
                    key={value}
                    icon={icon}
                    checked={scheme === value}
                    onSelect={() => {
                      setSchemePreference(value);
                      close();
                    }}
                  >
                    {t(`shell.scheme.${value}`)}
                  </MenuItem>
                ))}
                <MenuSeparator />
                <MenuItem
                  icon="logout"
                  onSelect={() => {
                    close();
                    void signOut().then(() => navigate('/sign-in'));
                  }}
                >
                  {t('shell.signOut')}
                </MenuItem>
              </>
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
      <VerifyAddressBanner user={user} />
      <main className="shell-main">{children}</main>
    </div>
  );
}
