// LockService: user, document and script locks. A lock is contended by a holder a test simulates with
// `rt.locks.hold`, or, when executions run concurrently in worker threads, by another execution.

import type { RuntimeClock } from './clock';
import { GasError } from './errors';
import type { Execution } from './execution';

export type LockScope = 'user' | 'document' | 'script';

type Holder = { kind: 'execution'; executionId: number } | { kind: 'simulated'; until: number };

/** The table's answer to one attempt: taken, or held by someone else (a simulated holder says until when). */
export type LockAnswer = { acquired: true } | { acquired: false; simulatedUntil: number | null };

/** What a Lock needs of the table: the host's LockTable, or a worker thread's remote view of it. */
export interface LockArbiter {
  _tryAcquire(key: string, executionId: number): LockAnswer;
  _release(key: string, executionId: number): void;
}

/** Real ms a waiting concurrent execution sleeps between two attempts. */
export const LOCK_POLL_MS = 5;

/** Who holds each lock, across executions. */
export class LockTable implements LockArbiter {
  readonly #holders = new Map<string, Holder>();

  constructor(readonly _clock: RuntimeClock) {}

  /**
   * Simulates another execution holding a lock for `forMs` of virtual time from now, so a test can
   * see tryLock fail or waitLock time out (or succeed after waiting).
   */
  hold(scope: LockScope, options: { forMs: number; user?: string }): void {
    this.#holders.set(lockKey(scope, options.user ?? ''), { kind: 'simulated', until: this._clock.now() + options.forMs });
  }

  /** Whether anyone holds the lock now. */
  isHeld(scope: LockScope, user = ''): boolean {
    return this._holderOf(lockKey(scope, user)) !== null;
  }

  _holderOf(key: string): Holder | null {
    const holder = this.#holders.get(key);
    if (holder?.kind === 'simulated' && holder.until <= this._clock.now()) {
      this.#holders.delete(key);
      return null;
    }
    return holder ?? null;
  }

  /**
   * Whether a second Lock object of the same execution gets a lock the first holds, the reference does not say:
   * the stricter reading is no (it waits like any other holder's), so code that nests a lock in itself is slow
   * here rather than relying on re-entry Google may not give. A Lock object asking again for what it holds gets it.
   */
  _tryAcquire(key: string, executionId: number): LockAnswer {
    const holder = this._holderOf(key);
    if (holder === null) {
      this.#holders.set(key, { kind: 'execution', executionId });
      return { acquired: true };
    }
    return { acquired: false, simulatedUntil: holder.kind === 'simulated' ? holder.until : null };
  }

  _release(key: string, executionId: number): void {
    const holder = this.#holders.get(key);
    if (holder?.kind === 'execution' && holder.executionId === executionId) this.#holders.delete(key);
  }

  /** Apps Script releases an execution's locks when it ends. */
  _releaseAll(executionId: number): void {
    for (const [key, holder] of this.#holders) {
      if (holder.kind === 'execution' && holder.executionId === executionId) this.#holders.delete(key);
    }
  }
}

export function lockKey(scope: LockScope, user: string): string {
  return scope === 'user' ? `user:${user}` : scope;
}

/** One Lock object, as LockService.get*Lock() returns it. */
export class Lock {
  static readonly gasName = 'Lock';
  #held = false;

  constructor(
    readonly _table: LockArbiter,
    readonly _key: string,
    readonly _execution: Execution,
  ) {}

  /**
   * Takes the lock if it can within `timeoutInMillis`. This Lock asking again for what it holds succeeds
   * at once; another Lock object of the same execution waits for it (see LockTable._tryAcquire). A sequential execution waits for a simulated holder on the virtual clock
   * (no other execution can hold a lock then); a concurrent one tries again every few real ms until
   * the lock is free or its timeout has passed.
   */
  tryLock(timeoutInMillis: number): boolean {
    const timeout = Math.max(0, Number(timeoutInMillis) || 0);
    if (this.#held) return true;
    const execution = this._execution;
    const first = this._table._tryAcquire(this._key, execution.id);
    if (first.acquired) return (this.#held = true);
    const started = execution.now();
    try {
      if (execution.realWaits) {
        for (;;) {
          const left = started + timeout - execution.now();
          if (left <= 0) return false;
          execution.wait(Math.min(LOCK_POLL_MS, left));
          if (this._table._tryAcquire(this._key, execution.id).acquired) return (this.#held = true);
        }
      }
      const waitMs = first.simulatedUntil === null ? Infinity : first.simulatedUntil - started;
      if (waitMs > timeout) {
        execution.wait(timeout);
        return false;
      }
      execution.wait(waitMs);
      if (!this._table._tryAcquire(this._key, execution.id).acquired) throw new Error('lock still held after its simulated holder ended');
      return (this.#held = true);
    } finally {
      execution.lockWaitMs += execution.now() - started;
    }
  }

  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis)) throw new GasError('Lock timeout: another process was holding the lock for too long.');
  }

  releaseLock(): void {
    if (!this.#held) return;
    this.#held = false;
    this._table._release(this._key, this._execution.id);
  }

  hasLock(): boolean {
    return this.#held;
  }
}

/** LockService as one execution sees it; in a custom function the user lock is the owner's. */
export class LockServiceStandIn {
  static readonly gasName = 'LockService';

  constructor(
    readonly _table: LockArbiter,
    readonly _execution: Execution,
    /** False in an add-on's time-driven trigger, where no document is open (see getDocumentLock). */
    readonly _hasActiveDocument: boolean = true,
  ) {}

  getUserLock(): Lock {
    return new Lock(this._table, lockKey('user', this._execution.storeUser), this._execution);
  }

  /**
   * A lock "of the current document": an add-on's time-driven trigger has none open, so null there, as
   * getDocumentProperties is (the reference is silent on triggers: the stricter reading, *unverified*).
   */
  getDocumentLock(): Lock | null {
    if (!this._hasActiveDocument) return null;
    return new Lock(this._table, lockKey('document', ''), this._execution);
  }

  getScriptLock(): Lock {
    return new Lock(this._table, lockKey('script', ''), this._execution);
  }
}
