// The type of the surface between the sidebar and the server, taken from the server module itself: apart from
// rpc.ts because it reaches src/server (and Apps Script's types), which the pure core, reading rpc.ts, must not see.

import type { Json } from './rpc';

/** Every function the sidebar may call, with its parameters and result: the exports of src/server/sidebar-api.ts. */
export type ServerApi = typeof import('../server/sidebar-api');

/** Compile-time guard: every parameter and result of ServerApi is JSON-safe (Dates and class instances do not cross google.script.run). */
type JsonSafe<T> = T extends Json ? true : false;
type EachJsonSafe = {
  [K in keyof ServerApi]: JsonSafe<ReturnType<ServerApi[K]>> extends true ? (Parameters<ServerApi[K]> extends Json[] ? true : false) : false;
}[keyof ServerApi];
// The union of every function's verdict: `true | false` (which `true` alone would satisfy) when any is unsafe.
export const RPC_TYPES_ARE_JSON_SAFE: false extends EachJsonSafe ? false : true = true;
