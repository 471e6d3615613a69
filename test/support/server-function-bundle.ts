// A server function no sidebar button calls yet (one a later job calls inside its own step), run in the Apps
// Script runtime beside the built add-in: dist/Code.js as built, then the function's module bundled from the
// same source (esbuild, as the build bundles every module but main.ts) and made a top-level function. Both
// run against the same spreadsheet, properties and emulator, as one project's files would.

import { buildSync } from 'esbuild';
import path from 'node:path';
import { ROOT, readBuiltCode } from './built-bundle';

/** dist/Code.js followed by `exportName` of `modulePath` (from the repository root) as the top-level `globalName`. */
export function builtCodeWith(modulePath: string, exportName: string, globalName: string): string {
  const bundled = buildSync({
    stdin: {
      contents: `import { ${exportName} } from ${JSON.stringify(`./${modulePath}`)};\n(globalThis as unknown as Record<string, unknown>)[${JSON.stringify(globalName)}] = ${exportName};\n`,
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'server-function-entry.ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2019',
    // As the build defines it for a plain build (scripts/webpack.config.cjs): any base URL.
    define: { __API_BASE_URL_PREFIX__: 'null' },
    absWorkingDir: path.resolve(ROOT),
  });
  return `${readBuiltCode()}\n;\n${bundled.outputFiles[0]!.text}`;
}
