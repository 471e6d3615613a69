// In-memory state with optional JSON persistence: every mutation goes through `commit` so `--data FILE` stays current.

import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { EmulatorState, UserRecord } from './records';

/** Holds the emulator's state and, when given a file, writes it after every change. */
export class Store {
  state: EmulatorState;
  /** Counts changes (commit, replace), so a route may keep an index of the state while it is unchanged. */
  version = 0;
  /** True when the state came from an existing data file rather than `initial`. */
  readonly loadedFromFile: boolean;

  /**
   * @param initial the state to start from when there is no data file (or it does not exist yet)
   * @param dataFile where to persist; an existing file wins over `initial`
   */
  constructor(
    initial: EmulatorState,
    private readonly dataFile?: string,
  ) {
    if (dataFile && existsSync(dataFile)) {
      this.state = JSON.parse(readFileSync(dataFile, 'utf8')) as EmulatorState;
      this.loadedFromFile = true;
    } else {
      this.state = initial;
      this.loadedFromFile = false;
      this.persist();
    }
  }

  /** Replaces the whole state (reset). */
  replace(next: EmulatorState): void {
    this.state = next;
    this.version++;
    this.persist();
  }

  /** Runs a change and persists it. */
  commit<T>(change: (state: EmulatorState) => T): T {
    const result = change(this.state);
    this.version++;
    this.persist();
    return result;
  }

  /** The user a bearer token belongs to, if any. */
  userByToken(token: string): UserRecord | undefined {
    return this.state.users.find((user) => user.tokens.includes(token));
  }

  /** A deep copy, so callers cannot change the store by accident. */
  snapshot(): EmulatorState {
    return structuredClone(this.state);
  }

  private persist(): void {
    if (!this.dataFile) return;
    // Write then rename, so a crash mid-write never leaves a half file behind.
    const temporary = `${this.dataFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.dataFile);
  }
}

/** Finds a record by id in one of the state's collections. */
export function byId<T extends { id: string }>(records: T[], id: string): T | undefined {
  return records.find((record) => record.id === id);
}
