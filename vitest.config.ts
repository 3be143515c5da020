import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts'],
    // Says so, once, when the browser tests are skipped for want of Chromium.
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    // Two files at a time even on two cores: most of a test's time is spent
    // waiting on PostgreSQL, Chromium or a server it started, not on its own CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
