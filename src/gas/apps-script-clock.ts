// Time in Apps Script: sleeping blocks the execution, up to five minutes per Utilities.sleep call.

import type { Clock } from '../core/api/transport';

const MAX_SLEEP_MS = 300_000;

export const appsScriptClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number) {
    let left = Math.max(0, Math.ceil(ms));
    while (left > 0) {
      const step = Math.min(left, MAX_SLEEP_MS);
      Utilities.sleep(step);
      left -= step;
    }
  },
};
