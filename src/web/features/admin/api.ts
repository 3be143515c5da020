import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, withQuery } from '../../api/client';
import type { AdminUser } from '../../api/types';
import type { AccountVerification, MailOverview, OutboxMail, TestMailSent } from '../../../shared/api/admin.js';

export type { AdminUser };

/** A refusal from better-auth: its `code` (e.g. `USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL`) when given, and message. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/**
 * A request to better-auth's admin endpoints. Their refusals come as
 * `{code, message}` from better-auth, or as `{error}` (the message alone)
 * when the server has rewrapped them; both are kept.
 */
async function adminCall<T>(path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(withQuery(`/api/auth/admin/${path}`, query), {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'same-origin',
      headers:
        body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new AdminError(0, 'NETWORK', 'NETWORK');
  }
  const parsed = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown; error?: unknown } | null;
  if (!response.ok) {
    const code = typeof parsed?.code === 'string' ? parsed.code : '';
    const message =
      typeof parsed?.message === 'string'
        ? parsed.message
        : typeof parsed?.error === 'string'
          ? parsed.error
          : response.statusText;
    throw new AdminError(response.status, code, message);
  }
  return parsed as T;
}

export const PAGE_SIZE = 25;

export const adminKeys = {
  all: ['admin', 'users'] as const,
  users: (search: string, offset: number) => ['admin', 'users', search, offset] as const,
};

/** A page of accounts, oldest first; a search with `@` looks at addresses, else at names. */
export const usersQuery = (search: string, offset: number) =>
  queryOptions({
    queryKey: adminKeys.users(search, offset),
    queryFn: () =>
      adminCall<{ users: AdminUser[]; total: number }>('list-users', undefined, {
        limit: PAGE_SIZE,
        offset,
        sortBy: 'createdAt',
        sortDirection: 'asc',
        ...(search
          ? { searchValue: search, searchField: search.includes('@') ? 'email' : 'name', searchOperator: 'contains' }
          : {}),
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role: 'user' | 'admin';
}

export const createAccount = (account: NewAccount) => adminCall<{ user: AdminUser }>('create-user', account);

export const setRole = (userId: string, role: 'user' | 'admin') => adminCall<{ user: AdminUser }>('set-role', { userId, role });

export const removeAccount = (userId: string) => adminCall<{ success: boolean }>('remove-user', { userId });

export const verifyAccount = (userId: string) =>
  api<AccountVerification>('/api/data/admin/accounts/verify', { method: 'POST', body: { userId } });

export const resendVerification = (userId: string) =>
  api<AccountVerification>('/api/data/admin/accounts/verification-mail', { method: 'POST', body: { userId } });

export const mailKeys = {
  overview: ['admin', 'mail'] as const,
  mail: (id: string) => ['admin', 'mail', id] as const,
};

/** How mail leaves, and the outbox's newest mails. */
export const mailQuery = () =>
  queryOptions({ queryKey: mailKeys.overview, queryFn: () => api<MailOverview>('/api/data/admin/mail'), staleTime: 0 });

export const outboxMailQuery = (id: string) =>
  queryOptions({
    queryKey: mailKeys.mail(id),
    queryFn: () => api<OutboxMail>(`/api/data/admin/mail/outbox/${encodeURIComponent(id)}`),
  });

export const sendTestMail = () => api<TestMailSent>('/api/data/admin/mail/test', { method: 'POST', body: {} });
