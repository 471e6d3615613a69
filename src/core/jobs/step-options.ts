// What the server gives one step of a wave-by-wave job (an export, an audit push).

import type { WaitLog } from '../export/wait-log';

export type WaveStepOptions<State> = {
  /**
   * Absolute time (ms since epoch) by which the step must have returned; Apps Script allows 6 minutes per
   * execution, and the server gives a step far less so the progress bar moves. Create the client with the
   * same `deadline`, so that its own waits for the rate limit also stop in time (they end in a
   * RateLimitedError, and the work stays pending).
   */
  deadline: number;
  /**
   * No wave starts with less than this left before the deadline: the server picks it with the
   * deadline, since a wave of PUTs can take seconds.
   */
  marginMs: number;
  waveSize?: number;
  /** The log whose `onWait` was given to the client, to report waits for the rate limit. */
  waitLog?: WaitLog;
  /** Checked between waves: true cancels (a cancel pressed in the sidebar while this step runs). */
  shouldStop?: () => boolean;
  /** Called after every wave with the state so far, so the server can save it: a killed step loses nothing. */
  onCheckpoint?: (state: State) => void;
};
