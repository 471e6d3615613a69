// Logger and console: what the script logs is kept on the runtime (rt.logs) and optionally passed on.
// Each line belongs to one execution, as in Apps Script, where `console` "allows the developer to write to the
// Execution log and to Google Cloud Logging if the script is associated with a standard Cloud Project"
// (developers.google.com/apps-script/reference/base/console), and the Executions page lists each execution with
// its own lines: an entry carries its execution's id (rt.executions[].id), so a test reads one execution's log
// as support reads it there. Logger's getLog() is "the log from the logging console" of the current execution
// (reference/base/logger): a LoggerStandIn is made per execution.

import { inspect } from 'node:util';

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

export interface LogEntry {
  level: LogLevel;
  message: string;
  /** Virtual time of the entry. */
  time: number;
  functionName: string;
  /** The execution that wrote it (rt.executions[].id); 0 outside any execution. */
  executionId: number;
}

export type LogSink = (entry: LogEntry) => void;

function render(value: unknown): string {
  return typeof value === 'string' ? value : inspect(value, { depth: 4, breakLength: Infinity });
}

/** Logger.log(format, ...values) replaces %s (and %d, %f) in order, as Apps Script's Logger does. */
function formatLoggerMessage(format: unknown, values: unknown[]): string {
  if (values.length === 0 || typeof format !== 'string') return [format, ...values].map(render).join(' ');
  let index = 0;
  return format.replace(/%[sdf]/g, (match) => (index < values.length ? render(values[index++]) : match));
}

export class LoggerStandIn {
  static readonly gasName = 'Logger';
  readonly #lines: string[] = [];

  constructor(readonly _write: (level: LogLevel, message: string) => void) {}

  log(format: unknown, ...values: unknown[]): LoggerStandIn {
    const message = formatLoggerMessage(format, values);
    this.#lines.push(message);
    this._write('log', message);
    return this;
  }

  getLog(): string {
    return this.#lines.join('\n');
  }

  clear(): void {
    this.#lines.length = 0;
  }
}

/** console in Apps Script's V8 runtime writes to the execution log; here it writes to rt.logs. */
export class ConsoleStandIn {
  static readonly gasName = 'console';

  constructor(readonly _write: (level: LogLevel, message: string) => void) {}

  log(...values: unknown[]): void {
    this._write('log', values.map(render).join(' '));
  }

  info(...values: unknown[]): void {
    this._write('info', values.map(render).join(' '));
  }

  warn(...values: unknown[]): void {
    this._write('warn', values.map(render).join(' '));
  }

  error(...values: unknown[]): void {
    this._write('error', values.map(render).join(' '));
  }

  debug(...values: unknown[]): void {
    this._write('debug', values.map(render).join(' '));
  }
}
