// LockService: user, document and script locks. Executions here run one at a time, so a lock is only
// ever contended by the same execution or by a holder a test simulates with `rt.locks.hold`.

import type { RuntimeClock } from './clock';
import { GasError } from './errors';
import type { Execution } from './execution';

export type LockScope = 'user' | 'document' | 'script';

type Holder = { kind: 'execution'; executionId: number } | { kind: 'simulated'; until: number };

/** Who holds each lock, across executions. */
export class LockTable {
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

  _acquire(key: string, executionId: number): void {
    this.#holders.set(key, { kind: 'execution', executionId });
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

function lockKey(scope: LockScope, user: string): string {
  return scope === 'user' ? `user:${user}` : scope;
}

/** One Lock object, as LockService.get*Lock() returns it. */
export class Lock {
  static readonly gasName = 'Lock';
  #held = false;

  constructor(
    readonly _table: LockTable,
    readonly _key: string,
    readonly _execution: Execution,
  ) {}

  /**
   * Takes the lock if it can within `timeoutInMillis`; waiting for a simulated holder advances the
   * virtual clock. The same execution taking a lock it already holds succeeds at once.
   */
  tryLock(timeoutInMillis: number): boolean {
    const timeout = Math.max(0, Number(timeoutInMillis) || 0);
    if (this.#held) return true;
    const holder = this._table._holderOf(this._key);
    if (holder?.kind === 'simulated') {
      const waitMs = holder.until - this._table._clock.now();
      if (waitMs > timeout) {
        this._execution.wait(timeout);
        return false;
      }
      this._execution.wait(waitMs);
    }
    this._table._acquire(this._key, this._execution.id);
    this.#held = true;
    return true;
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
    readonly _table: LockTable,
    readonly _execution: Execution,
  ) {}

  getUserLock(): Lock {
    return new Lock(this._table, lockKey('user', this._execution.storeUser), this._execution);
  }

  getDocumentLock(): Lock {
    return new Lock(this._table, lockKey('document', ''), this._execution);
  }

  getScriptLock(): Lock {
    return new Lock(this._table, lockKey('script', ''), this._execution);
  }
}
