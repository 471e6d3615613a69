// Bundles src/ into dist/Code.js for Apps Script.
// src/main.ts goes through TypeScript (transpile only) because esbuild drops the JSDoc that Sheets
// needs on custom functions; every other file goes through esbuild, which is much faster.

const path = require('node:path');
const webpack = require('webpack');
const GasPlugin = require('gas-webpack-plugin');

const root = path.resolve(__dirname, '..');
/** The script's time zone is the manifest's: custom functions may not ask Session for it (src/gas/spreadsheet-dates.ts). */
const scriptTimeZone = JSON.parse(require('node:fs').readFileSync(path.join(root, 'appsscript.json'), 'utf8')).timeZone;
const entry = path.join(root, 'src', 'main.ts');

/**
 * @param {{ outDir?: string, apiBaseUrlPrefix?: string | null }} [options] where Code.js goes (dist/ by
 *   default), and the urlFetchWhitelist prefix of `--api-base-url` (null: a plain build, any base URL).
 */
module.exports = ({ outDir = path.join(root, 'dist'), apiBaseUrlPrefix = null } = {}) => ({
  mode: 'production',
  context: root,
  entry,
  devtool: false,
  target: ['web', 'es2019'],
  output: { path: outDir, filename: 'Code.js', clean: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: entry,
        loader: 'ts-loader',
        options: {
          transpileOnly: true,
          configFile: path.join(root, 'tsconfig.server.json'),
          compilerOptions: { target: 'ES2017', module: 'ESNext', removeComments: false, sourceMap: false },
        },
      },
      {
        test: /\.ts$/,
        exclude: entry,
        loader: 'esbuild-loader',
        // esprima in gas-webpack-plugin reads only the entry, but keep all output at a level V8 and it agree on.
        options: { target: 'es2019' },
      },
    ],
  },
  // Minification would strip the JSDoc from the generated top-level declarations.
  optimization: { minimize: false, concatenateModules: true },
  performance: { hints: false },
  plugins: [
    // The one place src/ learns the build's allowlist: src/gas/user-settings.ts reads it.
    new webpack.DefinePlugin({ __API_BASE_URL_PREFIX__: JSON.stringify(apiBaseUrlPrefix), __SCRIPT_TIME_ZONE__: JSON.stringify(scriptTimeZone) }),
    new GasPlugin({ comment: true, include: [entry] }),
  ],
});
