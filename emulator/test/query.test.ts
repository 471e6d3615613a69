// Rails-style query strings, as the real service's Rack parser reads them.

import { parseRailsQuery, queryConflicts } from '../query';

describe('parseRailsQuery', () => {
  it('reads metric_id[]=a&metric_id[]=b as an array, in order', () => {
    expect(parseRailsQuery('metric_id[]=a&metric_id[]=b')).toEqual({ metric_id: ['a', 'b'] });
  });

  it('keeps only the last value of a bare repeat', () => {
    expect(parseRailsQuery('metric_id=a&metric_id=b')).toEqual({ metric_id: 'b' });
  });

  it('records a key sent both as a value and as a list, in either order', () => {
    expect(queryConflicts(parseRailsQuery('metric_id=a&metric_id[]=b'))).toEqual(['metric_id']);
    expect(queryConflicts(parseRailsQuery('metric_id[]=a&metric_id=b&page=2'))).toEqual(['metric_id']);
    expect(queryConflicts(parseRailsQuery('filter=x&filter[portfolio_company_profile_id]=y'))).toEqual(['filter']);
    expect(queryConflicts(parseRailsQuery('filter[k]=x&filter[k][]=y'))).toEqual(['filter[k]']);
  });

  it('records no conflict for one form repeated, and keeps conflicts out of the keys', () => {
    const parsed = parseRailsQuery('metric_id[]=a&metric_id[]=b&page=1&page=2');
    expect(queryConflicts(parsed)).toEqual([]);
    expect(Object.keys(parseRailsQuery('metric_id=a&metric_id[]=b'))).toEqual(['metric_id']);
  });

  it('reads filter[key]=value as a nested object', () => {
    expect(parseRailsQuery('filter[portfolio_company_profile_id]=x&page=2')).toEqual({
      filter: { portfolio_company_profile_id: 'x' },
      page: '2',
    });
  });

  it('decodes percent escapes and plus signs, also inside brackets', () => {
    expect(parseRailsQuery('label=Series%20A&name=a+b&metric_id%5B%5D=z')).toEqual({ label: 'Series A', name: 'a b', metric_id: ['z'] });
  });

  it('keeps a malformed escape as text instead of failing', () => {
    expect(parseRailsQuery('label=%E0%A4%A')).toEqual({ label: '%E0%A4%A' });
  });

  it('treats __proto__ as an ordinary key', () => {
    const parsed = parseRailsQuery('__proto__[polluted]=yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('ignores empty pairs and keys', () => {
    expect(parseRailsQuery('&&=x&a=')).toEqual({ a: '' });
  });
});
