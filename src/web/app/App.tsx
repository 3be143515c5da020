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
import { ArchivedBoardsPage, BoardArchivePage } from '../features/archive/ArchivePage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { AdminPage } from '../features/admin/AdminPage';
import { NotFoundPage } from './NotFoundPage';
import { RequireSession } from './RequireSession';
import { Toasts } from './Toasts';

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
          <Route element={<RequireSession />}>
            <Route path="/" element={<DashboardPage />} />
            <Route path="/board/:id" element={<BoardPage />} />
            <Route path="/board/:id/archive" element={<BoardArchivePage />} />
            <Route path="/archive" element={<ArchivedBoardsPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/admin" element={<AdminPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
      <Toasts />
    </QueryClientProvider>
  );
}
