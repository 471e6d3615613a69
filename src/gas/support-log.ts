// The support log in Apps Script: each event one console line, which Apps Script keeps with its execution
// (Extensions › Apps Script › Executions) and, for a standard Cloud project, in Cloud Logging: `console` "allows
// the developer to write to the Execution log and to Google Cloud Logging if the script is associated with a
// standard Cloud Project" (developers.google.com/apps-script/reference/base/console).

import { supportLine, type SupportEvent, type SupportLog } from '../core/log/support-log';

export const consoleSupportLog: SupportLog = {
  write(event: SupportEvent): void {
    const { level, text } = supportLine(event);
    // console.warn is Cloud Logging's WARNING severity: what went wrong or waited can be filtered by it.
    if (level === 'warn') console.warn(text);
    else console.log(text);
  },
};
