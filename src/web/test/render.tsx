import type { ReactElement, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { keys } from '../api/queries';
import type { Session } from '../api/types';

/** A query client as the app's, without retries (a refusal shows at once). */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
}

export const ME: Session = {
  user: { id: 'u-me', name: 'Mia Meyer', email: 'mia@example.com', image: null },
  session: { id: 's-1', expiresAt: '2099-01-01T00:00:00.000Z' },
};

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

type Route = (call: Call) => { status?: number; body: unknown } | undefined;

/**
 * `fetch` answered by `route` (method and path in, JSON out); every request is
 * recorded. A request nobody answers gets a 404, so a test sees it fail.
 */
export function mockFetch(route: Route) {
  const calls: Call[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = route(call) ?? { status: 404, body: { error: 'Not found' } };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}

/** Where the app's address is now (path and query), printed for the test to read. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Renders `ui` signed in as `ME`, inside the app's providers, at `path`. */
export function renderApp(ui: ReactElement, { path = '/', qc = testQueryClient() }: { path?: string; qc?: QueryClient } = {}) {
  qc.setQueryData(keys.session, ME);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  return { qc, ...render(ui, { wrapper }) };
}
