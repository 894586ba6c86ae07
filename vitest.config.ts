import { defineConfig } from 'vitest/config';

// The same suite runs twice: once on SQLite and once on PostgreSQL (TEST_ENGINE).
const shared = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'sqlite', env: { TEST_ENGINE: 'sqlite' } } },
      { test: { ...shared, name: 'postgres', env: { TEST_ENGINE: 'postgres' } } },
    ],
  },
});
