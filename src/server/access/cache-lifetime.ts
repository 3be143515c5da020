/**
 * How long a cached actor or board access is used at most, however well the
 * invalidations work: the backstop for a revocation that never reached this
 * process (sent after a commit by a process that died in between).
 */
export const CACHE_LIFETIME_MS = 30_000;

/** Milliseconds since the epoch; the caches take one so tests can move time. */
export type Clock = () => number;
