// What the page says when google.script.run itself fails (the server's own failures come back as data).
//
// With several Google accounts signed in at once, google.script.run calls fail before reaching the add-in's
// code: "ScriptError: Authorization is required to perform that action." or "We're sorry, a server error
// occurred while reading from storage. Error code PERMISSION_DENIED." (issuetracker.google.com/issues/69270374,
// open for years). The raw message tells a person nothing; the known way out does.

/** The sentence shown instead of a multi-account failure. */
export const MULTI_ACCOUNT_ADVICE =
  'Google could not run the add-on for this account, which usually happens when several Google accounts are signed in ' +
  'in this browser. Sign out of the other Google accounts (or open the spreadsheet in a browser profile or private window ' +
  'with only this account signed in), reload the spreadsheet, and try again.';

// "Authorisation" is how Google words it in British English pages.
const MULTI_ACCOUNT = /PERMISSION_DENIED|Authori[sz]ation is required/i;

/** The text of whatever a failure handler received: an Error (name and message), a string, or anything else. */
function failureText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** The sentence for a failed google.script.run call: the known way out for the multi-account failure, else its message. */
export function explainServerFailure(error: unknown): string {
  const text = failureText(error);
  if (MULTI_ACCOUNT.test(text)) return MULTI_ACCOUNT_ADVICE;
  return error instanceof Error ? error.message : text;
}
