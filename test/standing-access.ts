import type { LightMyRequestResponse } from 'fastify';
import type { As, TestContext, TestUser } from './harness.js';

/**
 * What an account can hand out that outlives its sessions and whose answer
 * holds a secret shown once: a calendar feed, a webhook (its signing secret)
 * and a public link (their addresses), and an API key. Shared by the tests
 * that make them (idempotency, reclaim, the address confirmation rules), so
 * each describes the same requests once. Webhooks to 127.0.0.1 need the
 * harness's `WEBHOOK_ALLOW_PRIVATE: 'true'`.
 */
export interface Handout {
  what: string;
  /** The request that makes one (a board of the caller's is needed for some). */
  request: (boardId: number) => { method: 'POST'; url: string; payload: object };
  /** The secret the answer shows once. */
  secretOf: (answer: Record<string, unknown>) => string;
  /** How many of them the account (or the board, for its webhooks and link) has. */
  count: (t: TestContext, owner: { userId: string; boardId: number }) => Promise<number>;
}

export const HOOK_URL = 'http://127.0.0.1:9/hook';

/** The three of `/api/data` (the scope that honours `Idempotency-Key`). */
export const DATA_HANDOUTS: readonly Handout[] = [
  {
    what: 'a webhook',
    request: (boardId) => ({ method: 'POST', url: '/api/data/webhook', payload: { boardId, url: HOOK_URL } }),
    secretOf: (a) => (a.webhook as { secret: string }).secret,
    count: async (t, { boardId }) =>
      (await t.db.selectFrom('webhooks').select('id').where('boardId', '=', boardId).execute()).length,
  },
  {
    what: 'a calendar feed',
    request: () => ({ method: 'POST', url: '/api/data/ical-feeds', payload: { name: 'Calendar' } }),
    secretOf: (a) => a.url as string,
    count: async (t, { userId }) =>
      (await t.db.selectFrom('ical_feeds').select('id').where('userId', '=', userId).execute()).length,
  },
  {
    what: 'a public link',
    request: (boardId) => ({ method: 'POST', url: '/api/data/public-link', payload: { boardId } }),
    secretOf: (a) => (a.link as { url: string }).url,
    count: async (t, { boardId }) =>
      (await t.db.selectFrom('public_links').select('boardId').where('boardId', '=', boardId).execute()).length,
  },
];

/** An API key (made outside `/api/data`, from a session only). */
export const API_KEY_HANDOUT: Handout = {
  what: 'an API key',
  request: () => ({ method: 'POST', url: '/api/auth/api-key/create', payload: { name: 'Key' } }),
  secretOf: (a) => a.key as string,
  count: async (t, { userId }) => (await t.db.selectFrom('apikey').select('id').where('userId', '=', userId).execute()).length,
};

/** Asks for one: by key or cookie through `t.inject`, the API key by cookie (its route wants a session). */
export function handOut(
  t: TestContext,
  as: As,
  handout: Handout,
  boardId: number,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const request = handout.request(boardId);
  if (handout === API_KEY_HANDOUT) {
    const cookie = as && 'cookie' in as ? as.cookie : undefined;
    return t.app.inject({ ...request, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  }
  return t.inject(as, { ...request, headers });
}

/** How many of each the account has (its board's webhooks and link counted for `boardId`), by `what`. */
export async function handedOut(t: TestContext, user: Pick<TestUser, 'id'>, boardId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const handout of [...DATA_HANDOUTS, API_KEY_HANDOUT]) {
    counts[handout.what] = await handout.count(t, { userId: user.id, boardId });
  }
  return counts;
}

/** Polls until `check` holds, for what follows an answer (a socket that closes after it). */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
