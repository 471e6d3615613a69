// What a pasted API token must look like before anything is sent with it. The token itself is opaque.

import { ConfigError } from '../errors';

/** Tokens are opaque, but never contain white space: pasted line breaks and spaces are a mistake to catch early. */
export function validateToken(input: string): string {
  const token = input.trim();
  if (!token) throw new ConfigError("The token is empty: paste the API token you received from the platform's API support.");
  if (/\s/.test(token)) throw new ConfigError('The token contains spaces or line breaks: paste it again as one piece of text.');
  if (token.length > 4096) throw new ConfigError('The token is longer than any API token: check what was pasted.');
  return token;
}
