// Reading a fund for its audit: profiles and properties together, then every profile's values and every option list in one concurrent wave.

import { loadAuditData, loadAuditSchema } from '../../../src/core/audit/load-audit-data';
import {
  client,
  FUND,
  loadSteps,
  OPTION,
  page,
  PROFILE,
  PROFILES,
  PROPERTIES,
  PROPERTY,
  optionsStep,
  profilesStep,
  propertiesStep,
  valuesStep,
} from './audit-fixtures';

function valueRecord(profileId: string, propertyId: string, value: number) {
  return {
    id: `b4000000-0000-4000-8000-${String(value).padStart(12, '0')}`,
    value,
    portfolio_property_id: propertyId,
    portfolio_company_profile_id: profileId,
    portfolio_property_option_id: null,
    portfolio_property_option_ids: [],
  };
}

describe('loading the audit data', () => {
  it('reads profiles and properties together, then all values and all options in one concurrent wave', () => {
    const { api, transport } = client(loadSteps());
    const data = loadAuditData(api, FUND);

    transport.assertDone();
    // 2 lists + 3 profiles' values + the options of the 2 select/multiselect properties.
    expect(transport.sent).toHaveLength(7);
    expect(transport.waves).toEqual([2, 5]);
    expect(transport.sent.slice(2).map((request) => request.url.replace('https://api.test', ''))).toEqual([
      `/portfolio_property_values?portfolio_company_profile_id=${PROFILE.aurora}&page=1`,
      `/portfolio_property_values?portfolio_company_profile_id=${PROFILE.bluebird}&page=1`,
      `/portfolio_property_values?portfolio_company_profile_id=${PROFILE.cobalt}&page=1`,
      `/portfolio_property_options?portfolio_property_id=${PROPERTY.sector}`,
      `/portfolio_property_options?portfolio_property_id=${PROPERTY.tags}`,
    ]);
    expect(data.profiles.map((profile) => profile.name)).toEqual(['Aurora Robotics', 'Bluebird Health', 'Cobalt Payments']);
    expect(data.properties.map((property) => [property.name, property.autoCalculated])).toEqual([
      ['Sector', false],
      ['Tags', false],
      ['Employees', false],
      ['Founded', false],
      ['Board seat', false],
      ['Headquarters', false],
      ['Pitch deck', false],
      ['Investment memo', false],
      ['MOIC', true],
      ['Initial Investment Date', true],
    ]);
    expect(data.options[PROPERTY.tags]!.map((option) => option.label)).toEqual(['B2B', 'SaaS', 'Hardware, IoT', 'Hardware', 'AI']);
    expect(data.values[PROFILE.aurora]![PROPERTY.sector]).toEqual({ value: 'Fintech', optionIds: [OPTION.fintech] });
    expect(data.values[PROFILE.aurora]![PROPERTY.tags]).toEqual({ value: ['SaaS', 'B2B'], optionIds: [OPTION.saas, OPTION.b2b] });
    expect(data.values[PROFILE.cobalt]).toEqual({
      [PROPERTY.employees]: { value: 7.25, optionIds: [] },
      [PROPERTY.headquarters]: { value: 'Lisbon', optionIds: [] },
    });
  });

  it('reads every further page: of the lists together, then of the values of every profile with more than one page', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...PROFILES[0]!,
      id: `b0000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`,
      name: `Company ${i}`,
    }));
    const [first, second] = [many.slice(0, 25), many.slice(25)];
    const numbers = PROPERTIES.filter((property) => property.data_type === 'number');
    const steps = [
      profilesStep(page('portfolio_company_profiles', first, 1, 2, 30)),
      propertiesStep(page('portfolio_properties', numbers)),
      profilesStep(page('portfolio_company_profiles', second, 2, 2, 30), 2),
      // The first profile has a second page of values; the others have one page.
      valuesStep(many[0]!.id, page('portfolio_property_values', [valueRecord(many[0]!.id, PROPERTY.moic, 1)], 1, 2, 2)),
      ...many.slice(1).map((profile) => valuesStep(profile.id, page('portfolio_property_values', []))),
      valuesStep(many[0]!.id, page('portfolio_property_values', [valueRecord(many[0]!.id, PROPERTY.employees, 2)], 2, 2, 2), 2),
    ];
    const { api, transport } = client(steps);
    const data = loadAuditData(api, FUND);

    transport.assertDone();
    expect(transport.sent).toHaveLength(34);
    // The second page of profiles goes alone (fetch, not fetchAll); so does the one second page of values.
    expect(transport.waves).toEqual([2, 30]);
    expect(data.profiles).toHaveLength(30);
    expect(data.values[many[0]!.id]).toEqual({ [PROPERTY.moic]: { value: 1, optionIds: [] }, [PROPERTY.employees]: { value: 2, optionIds: [] } });
    expect(data.properties.map((property) => property.name)).toEqual(['Employees', 'MOIC']);
  });

  it('reads only properties and options for a push', () => {
    const { api, transport } = client([propertiesStep(), optionsStep(PROPERTY.sector), optionsStep(PROPERTY.tags)]);
    const schema = loadAuditSchema(api, FUND);
    transport.assertDone();
    expect(transport.waves).toEqual([2]);
    expect(schema.properties).toHaveLength(10);
    expect(Object.keys(schema.options)).toEqual([PROPERTY.sector, PROPERTY.tags]);
  });

  it('refuses a company id that is not a UUID before any request', () => {
    const { api, transport } = client([]);
    expect(() => loadAuditData(api, 'northwind')).toThrow('The company id must be an id like');
    expect(transport.sent).toHaveLength(0);
  });
});
