import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'data/**', 'infra/kafka/target/**'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // two cores: integration suites share real servers
    maxWorkers: 2,
  },
});
