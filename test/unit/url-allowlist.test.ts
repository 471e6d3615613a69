// The build's urlFetchWhitelist prefix (--api-base-url) and the add-in's check of a base URL against it.

import { ConfigError } from '../../src/core/errors';
import { validateBaseUrl } from '../../src/core/settings/base-url';
import { isUnderPrefix, parseAllowlistPrefix, requireUnderPrefix } from '../../src/core/settings/url-allowlist';

describe('parseAllowlistPrefix', () => {
  it.each([
    ['https://api.example.com/', 'https://api.example.com/'],
    // "Each prefix must have a non-empty path": a bare host gets its slash.
    ['https://api.example.com', 'https://api.example.com/'],
    ['  HTTPS://API.Example.COM/v1  ', 'https://api.example.com/v1/'],
    ['https://api.example.com:8443/v1/', 'https://api.example.com:8443/v1/'],
    // Path matching is case-sensitive on Google's side, so the path keeps its case.
    ['https://api.example.com/V1', 'https://api.example.com/V1/'],
  ])('takes %p as %p', (input, expected) => {
    expect(parseAllowlistPrefix(input)).toBe(expected);
  });

  it.each([
    ['http://api.example.com/', /"http:\/\/api\.example\.com\/" must start with https:\/\//],
    ['https://127.0.0.1:8787/', /must name a full domain/],
    ['https://localhost/', /must name a full domain/],
    ['https://api/', /must name a full domain/],
    ['https://*.example.com/', /wildcard/],
    ['https://user@api.example.com/', /user name or password/],
    ['https://api.example.com/v1?x=1', /query string or a fragment/],
    ['api.example.com', /is not a URL/],
    ['', /is not a URL/],
  ])('refuses %p with a sentence', (input, message) => {
    expect(() => parseAllowlistPrefix(input)).toThrow(ConfigError);
    expect(() => parseAllowlistPrefix(input)).toThrow(message);
  });
});

describe('isUnderPrefix', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/', true],
    ['https://api.example.com/v1', 'https://api.example.com/', true],
    ['https://api.example.com/v1', 'https://api.example.com/v1/', true],
    ['https://api.example.com/v1/', 'https://api.example.com/v1/', true],
    ['https://api.example.com/v10', 'https://api.example.com/v1/', false],
    ['https://api.example.com', 'https://api.example.com/v1/', false],
    ['https://api.example.com.evil.test/v1', 'https://api.example.com/', false],
    ['https://other.example.com/v1', 'https://api.example.com/', false],
    ['http://api.example.com/v1', 'https://api.example.com/', false],
    ['http://127.0.0.1:8787', 'https://api.example.com/', false],
    ['https://api.example.com:8443/v1', 'https://api.example.com/', false],
    ['https://api.example.com/V1', 'https://api.example.com/v1/', false],
  ])('%p under %p: %p', (baseUrl, prefix, expected) => {
    expect(isUnderPrefix(baseUrl, prefix)).toBe(expected);
  });

  it('agrees with validateBaseUrl, whose results have no trailing slash', () => {
    const prefix = parseAllowlistPrefix('https://API.example.com/v1');
    expect(isUnderPrefix(validateBaseUrl('HTTPS://api.EXAMPLE.com/v1/'), prefix)).toBe(true);
  });
});

describe('requireUnderPrefix', () => {
  it('refuses a base URL outside the prefix with a sentence naming the prefix', () => {
    expect(() => requireUnderPrefix('https://other.example.com', 'https://api.example.com/')).toThrow(
      new ConfigError(
        'The base URL must start with https://api.example.com/: this installation of the add-in may fetch only from there (the allowlist it was built with).',
      ),
    );
  });
  it('passes a base URL under the prefix, and any base URL when the build has none', () => {
    expect(requireUnderPrefix('https://api.example.com/v1', 'https://api.example.com/')).toBe('https://api.example.com/v1');
    expect(requireUnderPrefix('http://127.0.0.1:8787', null)).toBe('http://127.0.0.1:8787');
  });
});
