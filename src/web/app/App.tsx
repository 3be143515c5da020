import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ApiError, setUnauthorizedHandler } from '../api/client';
import { keys } from '../api/queries';
import { SignInPage } from '../features/auth/SignInPage';
import { SignUpPage } from '../features/auth/SignUpPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { InvitePage } from '../features/auth/InvitePage';
import { BoardPage } from '../features/board/BoardPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { NotFoundPage } from './NotFoundPage';
import { RequireSession } from './RequireSession';
import { Toasts } from './Toasts';

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
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
      <Toasts />
    </QueryClientProvider>
  );
}
