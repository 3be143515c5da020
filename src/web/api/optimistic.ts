import type { QueryClient } from '@tanstack/react-query';
import i18n from '../app/i18n';
import { toast } from '../app/toast';
import { errorMessage } from './errors';

/**
 * How the app writes. Changes to a board are optimistic: the cache changes at
 * once, the request follows, and a refusal puts the cache back and says why
 * in a toast. The realtime echo of a change is applied idempotently (cache.ts).
 */

/** Runs `request` after `apply`; on failure undoes through the returned function and tells the user. */
export async function optimistic<T>(apply: () => () => void, request: () => Promise<T>): Promise<T | undefined> {
  const rollback = apply();
  try {
    return await request();
  } catch (error) {
    rollback();
    toast.error(i18n.t('errors.notSaved', { reason: errorMessage(error) }));
    return undefined;
  }
}

/** A plain request whose refusal is only reported. */
export async function attempt<T>(request: () => Promise<T>): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    toast.error(errorMessage(error));
    return undefined;
  }
}

/** What the cache holds under `key` now, and a function that puts it back. */
export function snapshot<T>(qc: QueryClient, key: readonly unknown[]): () => void {
  const before = qc.getQueryData<T>(key);
  return () => qc.setQueryData(key, before);
}
