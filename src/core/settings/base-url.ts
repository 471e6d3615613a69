// Where the token may be sent: HTTPS anywhere, plain HTTP only to this machine (the emulator).

import { ConfigError } from '../errors';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Returns the URL without a trailing slash, or throws a ConfigError that says what is wrong. */
export function validateBaseUrl(input: string): string {
  const text = input.trim();
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@]+)(\/[^?#]*)?([?#].*)?$/i.exec(text);
  if (!match) {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text))
      throw new ConfigError('The base URL may not carry a user name or password: put the token in the token field.');
    throw new ConfigError(`"${text.slice(0, 80)}" is not a URL: give the API's address, like https://api.example.com/v1.`);
  }
  const [, scheme = '', hostPort = '', path = '', rest] = match;
  if (rest) throw new ConfigError('The base URL may not have a query string or a fragment (the part after ? or #).');
  const host = hostPort.replace(/:\d+$/, '');
  const lowerScheme = scheme.toLowerCase();
  if (lowerScheme === 'http' && !LOOPBACK_HOST.test(host)) {
    throw new ConfigError(
      'The base URL must start with https:// (plain http is allowed only for a local emulator on localhost), so the token is never sent in clear.',
    );
  }
  if (lowerScheme !== 'https' && lowerScheme !== 'http') throw new ConfigError('The base URL must start with https://.');
  return `${lowerScheme}://${hostPort.toLowerCase()}${path.replace(/\/+$/, '')}`;
}
