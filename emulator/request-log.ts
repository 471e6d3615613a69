// The log of API requests the emulator answered, so tests can assert what a client sent and in what order.

/** One API request as the emulator saw it. */
export interface LoggedRequest {
  method: string;
  path: string;
  /** The raw query string, without the `?`. */
  query: string;
  /** HTTP status answered; 0 when the connection was dropped on purpose. */
  status: number;
  /** When the request arrived, on the emulator's clock (ISO 8601). */
  time: string;
  /** The parsed JSON body, when there was one. */
  body?: unknown;
  /** The id of the user whose token authenticated the request (tests assert whose connection was used); absent when none did. */
  userId?: string;
  /** The injected fault that answered instead of the service, if any. */
  fault?: 'drop' | '5xx' | '429';
}

/** Keeps the newest entries only, so a long session cannot exhaust memory. */
export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 10_000) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
