// Jest's globalSetup: bundles the emulator's command line and the workbench's server once per run, so the
// suites start them with plain `node` rather than through tsx, which loads its loader and compiles their
// TypeScript again in every process (about 0.6 s of CPU of a start's 2 s, and the suites start some 65).
// startEmulatorProcess (emulator/testing.ts) and startWorkbench (test/support/workbench-process.ts) use a
// bundle named by EMULATOR_BUNDLE / WORKBENCH_BUNDLE; without one (`npm run emulator`, `npm start`, the
// bench) they run the sources through tsx as before. Jest's workers, and the processes they start, inherit
// the variables, so the workbench's own emulator is the bundle too.
const { build, stop } = require('esbuild');
const { mkdirSync, readFileSync, renameSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
/** Inside the repository, so the bundles find its node_modules: packages stay outside them, loaded as tsx loaded them. */
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'server-bundles');
const ENTRIES = {
  EMULATOR_BUNDLE: { name: 'emulator', entry: path.join(ROOT, 'emulator', 'cli.ts') },
  WORKBENCH_BUNDLE: { name: 'workbench', entry: path.join(ROOT, 'workbench', 'server.ts') },
};

/**
 * The sources read files beside themselves (the contract, the workbench's page, the runtime's workers) by
 * __dirname; in one bundle that would be the bundle's folder, so each source's own folder is written in.
 */
const sourceDirname = {
  name: 'source-dirname',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))),
      loader: 'ts',
    }));
  },
};

async function bundleServers() {
  mkdirSync(OUT_DIR, { recursive: true });
  try {
    await bundleAll();
  } finally {
    // esbuild's service child would otherwise live on in the jest process (the only one, with --runInBand).
    await stop();
  }
}

async function bundleAll() {
  await Promise.all(
    Object.entries(ENTRIES).map(async ([variable, { name, entry }]) => {
      const outfile = path.join(OUT_DIR, `${name}.cjs`);
      // Written beside and renamed: another jest run in this checkout may be starting the previous bundle.
      const temporary = `${outfile}.${process.pid}.tmp`;
      await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        packages: 'external',
        outfile: temporary,
        plugins: [sourceDirname],
        logLevel: 'warning',
      });
      renameSync(temporary, outfile);
      process.env[variable] = outfile;
    }),
  );
}

module.exports = bundleServers;
