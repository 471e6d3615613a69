// Jest's TypeScript transform: esbuild strips the types (type-checking is `npm run typecheck`), as ts-jest's
// isolatedModules did, in a fraction of the time; the suite's 176 files load a few hundred modules each run.
const { transformSync } = require('esbuild');
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { version } = require('esbuild/package.json');

/** What else decides the output: esbuild's version and these options. */
const TRANSFORM_KEY = createHash('sha256').update(version).update(readFileSync(__filename)).digest('hex');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      target: 'node20',
      // import() becomes a require, as TypeScript's CommonJS output had it: Jest's module system runs no ES modules.
      supported: { 'dynamic-import': false },
      sourcemap: 'external',
      sourcesContent: false,
      sourcefile: filename,
      // As ts-jest compiled them: a field declared without a value does not reset what a base constructor set.
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(TRANSFORM_KEY).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
