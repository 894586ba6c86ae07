import { defineConfig } from 'vitest/config';

// The same suite runs twice: once on SQLite and once on PostgreSQL (TEST_ENGINE). Browser tests
// (test/browser, Debian's chromium) check pages, not storage: they run once, on SQLite.
const shared = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  exclude: ['test/browser/**', '**/node_modules/**'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'sqlite', env: { TEST_ENGINE: 'sqlite' } } },
      { test: { ...shared, name: 'postgres', env: { TEST_ENGINE: 'postgres' } } },
      {
        test: {
          ...shared,
          include: ['test/browser/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          name: 'browser',
          env: { TEST_ENGINE: 'sqlite' },
        },
      },
    ],
  },
});
