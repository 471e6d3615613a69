// Session: who runs the script and in which time zone, with the blanks Apps Script leaves where it hides the email.

import { createHash } from 'node:crypto';
import type { Execution } from './execution';

/** Base.User: a person, by email. */
export class User {
  static readonly gasName = 'User';

  constructor(readonly _email: string) {}

  getEmail(): string {
    return this._email;
  }

  /** Deprecated in Apps Script, still present. */
  getUserLoginId(): string {
    return this._email;
  }
}

export class SessionStandIn {
  static readonly gasName = 'Session';

  constructor(
    readonly _execution: Execution,
    readonly _scriptTimeZone: string,
    readonly _scriptId: string,
  ) {}

  /**
   * The user at the keyboard. The reference: the email "is not available in any context that allows
   * a script to run without that user's authorization, like a simple onOpen(e) or onEdit(e) trigger,
   * a custom function in Google Sheets" — so it is blank unless the execution runs with FULL authorization.
   */
  getActiveUser(): User {
    return new User(this._execution.authMode === 'FULL' ? this._execution.user : '');
  }

  /** The user whose authority the script runs under; blank where the active user is blank, for the same reason. */
  getEffectiveUser(): User {
    return new User(this._execution.authMode === 'FULL' ? this._execution.user : '');
  }

  getScriptTimeZone(): string {
    return this._scriptTimeZone;
  }

  /** A key stable per user and script that reveals no email; available even where the email is blank. */
  getTemporaryActiveUserKey(): string {
    return createHash('sha256').update(`${this._scriptId}\n${this._execution.user}`).digest('base64').slice(0, 43);
  }

  getActiveUserLocale(): string {
    return 'en';
  }
}
