import v8 from 'node:v8';

/**
 * Keeps start-up from sizing V8's young generation.
 *
 * Loading the service (better-auth, Fastify, the route schemas and their
 * compiled validators) allocates tens of MiB of objects that all live on. V8
 * reads that survival rate as a busy program and doubles the young
 * generation to its 2 × 16 MiB maximum, and never gives it back while the
 * process idles: about 25 MiB of an idle server's resident memory. So growth
 * is off while the modules load and the routes compile, and back on (V8's
 * default factor, 2) once the server listens: under real load the young
 * generation grows exactly as before, so the hot paths are not slowed; an
 * idle instance just never pays for its own start-up.
 *
 * Imported first by main.ts, so it runs before any other module is evaluated.
 * `--max-semi-space-size` on the command line still wins (it caps the size).
 */
const V8_DEFAULT_GROWTH_FACTOR = 2;

v8.setFlagsFromString('--semi-space-growth-factor=1');

/** Lets the young generation grow again: call once start-up is over. */
export function startupAllocationsDone(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
}
