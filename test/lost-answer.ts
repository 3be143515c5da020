import type { TestContext } from './harness.js';

/**
 * What a process that died after a keyed write's commit leaves behind: the
 * write and its record, no answer, and an attempt long gone, so the next
 * request with the key takes over at once.
 */
export function loseAnswer(t: TestContext, userId: string, key: string): Promise<unknown> {
  return t.db
    .updateTable('idempotency_keys')
    .set({ status: null, response: null, owner: 'dead', appliedAt: new Date(Date.now() - 10_000).toISOString() })
    .where('userId', '=', userId)
    .where('key', '=', key)
    .execute();
}
