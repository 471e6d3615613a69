// A typed, promise-based wrapper over google.script.run. The names and types come from ServerApi, the type of
// src/server/sidebar-api.ts itself, so a rename or a changed shape breaks the build rather than the page.
// Hand-written instead of gas-client: that package also bundles a UUID library and a dev-server
// message bridge this add-in does not use, and this is the whole of what we need from it.

import type { ServerApi } from '../src/shared/server-api';
import { explainServerFailure } from './server-failure';

interface ScriptRun {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRun;
  withFailureHandler(handler: (error: Error) => void): ScriptRun;
  [name: string]: unknown;
}

declare const google: { script: { run: ScriptRun } };

type Promised<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

export const server = new Proxy({} as Promised<ServerApi>, {
  get(_target, name) {
    return (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        // Every tab's calls fail through here, so every tab gets the same sentence for a platform failure.
        const run = google.script.run.withSuccessHandler(resolve).withFailureHandler((error) => reject(new Error(explainServerFailure(error))));
        const fn = run[String(name)];
        if (typeof fn !== 'function') {
          reject(new Error(`The server has no function ${String(name)}.`));
          return;
        }
        (fn as (...a: unknown[]) => void).apply(run, args);
      });
  },
});
