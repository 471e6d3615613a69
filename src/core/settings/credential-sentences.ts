// The one place that says a token or base URL is missing, in words that fit whoever reads them.

import { ConfigError } from '../errors';
import { SETTINGS_HINT } from '../product';

/**
 * Whose settings were read. A custom function runs with the spreadsheet owner's user properties
 * (Apps Script: "getUserProperties() only gets the properties of the spreadsheet owner") and cannot
 * tell who is reading the cell (Session.getActiveUser() is blank there): its sentence must fit the
 * owner and every editor alike. The sidebar and the menu read the caller's own settings.
 */
export type CredentialsOf = 'spreadsheet-owner' | 'caller';

type MissingCredential = 'token' | 'baseUrl';

const COPY_HINT = 'anyone else can make a copy of the spreadsheet (File › Make a copy) and use their own connection there';

export function missingCredential(what: MissingCredential, of: CredentialsOf): ConfigError {
  if (of === 'spreadsheet-owner') {
    const missing = what === 'token' ? 'has not set an API token' : "has not set the API's base URL";
    return new ConfigError(
      `Formulas in this spreadsheet use its owner's API connection, and the owner ${missing}. The owner can set it in ${SETTINGS_HINT}; ${COPY_HINT}.`,
    );
  }
  return new ConfigError(
    what === 'token'
      ? `No API token is set. Open ${SETTINGS_HINT} and paste your API token.`
      : `No API base URL is set. Open ${SETTINGS_HINT} and enter the API's address.`,
  );
}
