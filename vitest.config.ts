import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'data/**', 'infra/kafka/target/**'],
    // Kafka and ClickHouse (installed and started by the project's scripts), and the EVM devnet:
    // started once for the run, stopped by PID at the end
    globalSetup: ['test/setup/services.ts', 'test/setup/devnet.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // two cores: integration suites share real servers
    maxWorkers: 2,
  },
});
