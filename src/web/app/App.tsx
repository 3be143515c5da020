import { lazy, Suspense, type ReactNode } from 'react';
import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ApiError, setUnauthorizedHandler } from '../api/client';
import { keys, prefetchBoard } from '../api/queries';
import { SignInPage } from '../features/auth/SignInPage';
import { SignUpPage } from '../features/auth/SignUpPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { InvitePage } from '../features/auth/InvitePage';
import { BoardPage } from '../features/board/BoardPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { PublicBoardPage } from '../features/public-link/PublicBoardPage';

import { NotFoundPage } from './NotFoundPage';
import { RequireSession } from './RequireSession';
import { Toasts } from './Toasts';

// Pages opened now and then load when first opened, not with the board.
const BoardArchivePage = lazy(() => import('../features/archive/ArchivePage').then((m) => ({ default: m.BoardArchivePage })));
const ArchivedBoardsPage = lazy(() => import('../features/archive/ArchivePage').then((m) => ({ default: m.ArchivedBoardsPage })));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const MyWorkPage = lazy(() => import('../features/my-work/MyWorkPage').then((m) => ({ default: m.MyWorkPage })));
const AdminPage = lazy(() => import('../features/admin/AdminPage').then((m) => ({ default: m.AdminPage })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div className="center-fill" aria-busy="true" />}>{children}</Suspense>;
}

// Cache changes reach the components in the same task (not a timer later): a dropped card lands at once.
notifyManager.setScheduler(queueMicrotask);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Realtime events keep the cache current; no refetch on every focus.
      refetchOnWindowFocus: false,
      staleTime: 60_000,
      retry: (count, error) => (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) && count < 2,
    },
  },
});

setUnauthorizedHandler(() => void queryClient.invalidateQueries({ queryKey: keys.session }));

// Opening a board's address: its areas and cards are fetched at once, beside the session check, not after it.
const boardInAddress = /^\/board\/(\d+)/.exec(location.pathname);
if (boardInAddress) void prefetchBoard(queryClient, Number(boardInAddress[1]));

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/sign-up" element={<SignUpPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/invite/:token" element={<InvitePage />} />
          <Route path="/p/:token" element={<PublicBoardPage />} />
          <Route element={<RequireSession />}>
            <Route path="/" element={<DashboardPage />} />
            <Route path="/board/:id" element={<BoardPage />} />
            <Route
              path="/board/:id/archive"
              element={
                <Page>
                  <BoardArchivePage />
                </Page>
              }
            />
            <Route
              path="/archive"
              element={
                <Page>
                  <ArchivedBoardsPage />
                </Page>
              }
            />
            <Route
              path="/settings"
              element={
                <Page>
                  <SettingsPage />
                </Page>
              }
            />
            <Route
              path="/my-work"
              element={
                <Page>
                  <MyWorkPage />
                </Page>
              }
            />
            <Route
              path="/admin"
              element={
                <Page>
                  <AdminPage />
                </Page>
              }
            />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
      <Toasts />
    </QueryClientProvider>
  );
}
