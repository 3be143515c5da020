import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { RealtimeProvider } from '../realtime/RealtimeProvider';
import { AppShell } from './AppShell';
import { setLanguage } from './i18n';
import { useSession } from './session';

/** The signed-in part of the app: without a session, off to sign-in (and back here after). */
export function RequireSession() {
  const { data: session, isPending } = useSession();
  const location = useLocation();
  const language = session?.user.language;
  useEffect(() => {
    void setLanguage(language);
  }, [language]);

  if (isPending) return <div className="center-fill" aria-busy="true" />;
  if (!session) {
    const next = location.pathname + location.search;
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return (
    <RealtimeProvider userId={session.user.id}>
      <AppShell user={session.user}>
        <Outlet />
      </AppShell>
    </RealtimeProvider>
  );
}
