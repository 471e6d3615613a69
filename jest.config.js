/**
 * Jest strips TypeScript's types with esbuild (test/support/esbuild-transform.js); type-checking is `tsc --noEmit`.
 * ts-jest's transpile-only mode did the same work at about 1.5 times the CPU per file on a cold cache (a fresh clone).
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/emulator', '<rootDir>/gas-runtime'],
  // Tests that start processes and browsers share 2 cores with the rest; two workers keep them honest.
  maxWorkers: 2,
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': '<rootDir>/test/support/esbuild-transform.js',
  },
  testTimeout: 60000,
  // Bundles the emulator and the workbench once per run, started with plain node (test/support/server-bundles.js).
  globalSetup: '<rootDir>/test/support/server-bundles.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
