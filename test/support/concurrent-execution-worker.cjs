// Starts a worker thread's TypeScript: worker threads do not inherit the test runner's transpiler.
require('tsx/cjs');
require('./concurrent-execution-worker.ts');
