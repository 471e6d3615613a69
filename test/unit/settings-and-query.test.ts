import { encodeQuery, fillPath } from '../../src/core/api/query';
import { validateBaseUrl } from '../../src/core/settings/base-url';
import { validateToken } from '../../src/core/settings/token';

describe('base URL', () => {
  it.each([
    ['https://api.example.com/v1/', 'https://api.example.com/v1'],
    ['HTTPS://API.example.com', 'https://api.example.com'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://localhost:3000/api', 'http://localhost:3000/api'],
  ])('accepts %p as %p', (input, expected) => {
    expect(validateBaseUrl(input)).toBe(expected);
  });
  it.each([
    ['http://api.example.com', /must start with https/],
    ['ftp://api.example.com', /must start with https/],
    ['https://user:pw@api.example.com', /user name or password/],
    ['https://api.example.com/v1?x=1', /query string/],
    ['api.example.com', /is not a URL/],
  ])('refuses %p', (input, message) => {
    expect(() => validateBaseUrl(input)).toThrow(message);
  });
});

describe('token', () => {
  it('trims and refuses white space inside', () => {
    expect(validateToken('  tok-123456 \n')).toBe('tok-123456');
    expect(() => validateToken('tok 123')).toThrow(/spaces or line breaks/);
    expect(() => validateToken('   ')).toThrow(/empty/);
  });
});

describe('query and path', () => {
  it('encodes arrays Rails-style and objects deep-object style, skipping undefined', () => {
    expect(decodeURIComponent(encodeQuery({ metric_id: ['a', 'b'], filter: { portfolio_company_profile_id: 'p' }, page: 2, x: undefined, flag: true }))).toBe(
      'metric_id[]=a&metric_id[]=b&filter[portfolio_company_profile_id]=p&page=2&flag=true',
    );
  });
  it('never lets a path parameter change the path', () => {
    expect(fillPath('/metrics/{id}/data_points', { id: 'a/../b?c=d' })).toBe('/metrics/a%2F..%2Fb%3Fc%3Dd/data_points');
    expect(() => fillPath('/metrics/{id}', { id: '..' })).toThrow(/may not be/);
    expect(() => fillPath('/metrics/{id}', {})).toThrow(/missing/);
  });
});
