import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two files at a time even on two cores: most of a test's time is spent
    // waiting on PostgreSQL, Chromium or a server it started, not on its own CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // A worker process runs file after file with the modules it imported
          // (Fastify, better-auth, Kysely…) kept: importing them anew cost each
          // file seconds. The files share no state through them — no module
          // mocks, fake timers or environment changes; each suite builds its
          // own app on its own database — and each file's own module still runs afresh.
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts'],
          // Says so, once, when the browser tests are skipped for want of Chromium;
          // migrates the template databases the suites copy, and drops the run's databases.
          globalSetup: ['e2e/global-setup.ts', 'test/global-setup.ts'],
        },
      },
      {
        // The web app's components and hooks, in a simulated browser (Testing Library).
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.tsx'],
          setupFiles: ['src/web/test/setup.ts'],
        },
      },
    ],
  },
});
