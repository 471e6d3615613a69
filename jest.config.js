/** Jest runs TypeScript through ts-jest; type-checking is `tsc --noEmit`, so transpile-only here keeps the suite fast. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/emulator', '<rootDir>/gas-runtime'],
  // Tests that start processes and browsers share 2 cores with the rest; two workers keep them honest.
  maxWorkers: 2,
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node10', isolatedModules: true, esModuleInterop: true, resolveJsonModule: true } }],
  },
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
