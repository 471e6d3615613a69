// Refuses a fetch to a server listening on the script's own thread: Atomics.wait would block the
// server's event loop and the request would hang until it timed out.

import net from 'node:net';
import { GasRuntimeUsageError } from './errors';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Throws when `url` points at a loopback port a server of this thread listens on. */
export function assertNotServedByThisThread(url: URL): void {
  if (!isLoopback(url.hostname)) return;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // Node has no public list of a thread's servers; _getActiveHandles is internal but long-standing.
  // Without it the check is skipped and the request simply times out.
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  for (const handle of handles) {
    if (!(handle instanceof net.Server) || !handle.listening) continue;
    const address = handle.address();
    if (address !== null && typeof address === 'object' && address.port === port) {
      throw new GasRuntimeUsageError(
        `${url.origin} is served by a server on the same thread as the runtime. UrlFetchApp blocks this thread ` +
          'until the response arrives, so that server could never answer. Run it in a worker thread or a child process.',
        'SAME_THREAD_SERVER',
      );
    }
  }
}
