import { defineConfig } from 'vitest/config';

// The same suite runs twice: once on SQLite and once on PostgreSQL (TEST_ENGINE). Browser tests
// (test/browser, Debian's chromium) check pages, not storage: they run once, on SQLite.
//
// Test files share their worker's modules (isolate: false): importing the application's module graph
// cost each file more than its tests did, and a worker's files hand their emptied PostgreSQL schema
// on (test/helpers/db.ts). Every file builds its own application, database and clock, so nothing else
// is shared. A file that replaces a module (vi.mock) needs a module graph of its own: it is named
// `*.isolated.test.ts` and runs in the `sqlite-isolated` and `postgres-isolated` projects
// (`--project 'sqlite*'` selects both SQLite projects).
const shared = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  exclude: ['test/browser/**', '**/node_modules/**', '**/*.isolated.test.ts'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  isolate: false,
};
const isolated = {
  ...shared,
  include: ['src/**/*.isolated.test.ts', 'test/**/*.isolated.test.ts'],
  exclude: ['**/node_modules/**'],
  isolate: true,
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'sqlite', env: { TEST_ENGINE: 'sqlite' } } },
      { test: { ...isolated, name: 'sqlite-isolated', env: { TEST_ENGINE: 'sqlite' } } },
      { test: { ...shared, name: 'postgres', env: { TEST_ENGINE: 'postgres' } } },
      { test: { ...isolated, name: 'postgres-isolated', env: { TEST_ENGINE: 'postgres' } } },
      {
        test: {
          ...shared,
          include: ['test/browser/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          name: 'browser',
          env: { TEST_ENGINE: 'sqlite' },
          isolate: true,
          // A browser test is a journey of many pages (each checked by axe and photographed at two widths).
          testTimeout: 90_000,
        },
      },
    ],
  },
});
