// Portfolio properties, property values and property options (investor product only), from the spec.

import { DEMO_IDS, FORMULA_TEXT } from '../demo-data';
import { AUTO_CALCULATED_PROPERTY_NAMES } from '../property-values';
import type { RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
// Every test starts from the demo data: jest --randomize runs them in any order.
beforeEach(() => emulator.control.reset());

const fund = DEMO_IDS.fund;
const property = {
  sector: DEMO_IDS.property(1),
  stage: DEMO_IDS.property(2),
  tags: DEMO_IDS.property(3),
  employees: DEMO_IDS.property(4),
  founded: DEMO_IDS.property(5),
  boardSeat: DEMO_IDS.property(6),
  headquarters: DEMO_IDS.property(7),
  memo: DEMO_IDS.property(8),
  deck: DEMO_IDS.property(9),
  thesis: DEMO_IDS.property(10),
  totalInvested: DEMO_IDS.property(11),
  harbor: DEMO_IDS.property(16),
};
const option = {
  fintech: DEMO_IDS.option(1),
  healthcare: DEMO_IDS.option(2),
  seriesA: DEMO_IDS.option(9),
  b2b: DEMO_IDS.option(12),
  saas: DEMO_IDS.option(14),
  ai: DEMO_IDS.option(17),
};

/** A profile of its own, so a test's writes never meet another test's. */
async function freshProfile(): Promise<string> {
  const created = await emulator.control.fixtures({ portfolio_company_profiles: [{ company_id: fund }] });
  return created.portfolio_company_profiles[0]!.id;
}

const putValue = (value: Record<string, unknown>) => call(emulator, 'PUT', '/portfolio_property_values', { body: { portfolio_property_value: value } });

describe('GET /portfolio_properties', () => {
  it('lists every data type, then the auto-calculated investment properties by name', async () => {
    const answer = await get(emulator, '/portfolio_properties', `company_id=${fund}`);
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ total: 15, total_pages: 1, page: 1 });
    const types = answer.body.portfolio_properties.map((p: { data_type: string }) => p.data_type);
    for (const type of ['number', 'date', 'boolean', 'select', 'multiselect', 'string', 'text', 'url']) expect(types).toContain(type);
    expect(answer.body.portfolio_properties.slice(10).map((p: { name: string }) => p.name)).toEqual([...AUTO_CALCULATED_PROPERTY_NAMES]);
    expect(Object.keys(answer.body.portfolio_properties[10]).sort()).toEqual(['company_id', 'data_type', 'id', 'name']);
  });

  it('answers 403 for a startup company', async () => {
    expect((await get(emulator, '/portfolio_properties', `company_id=${DEMO_IDS.startup}`)).status).toBe(403);
  });
});

describe('GET /portfolio_property_values', () => {
  it('formats values by data type, with gaps where a profile has no value', async () => {
    const valuesOf = async (profile: number) => {
      const answer = await get(emulator, '/portfolio_property_values', `portfolio_company_profile_id=${DEMO_IDS.profile(profile)}`);
      expect(answer.status).toBe(200);
      return new Map<string, unknown>(answer.body.portfolio_property_values.map((v: { portfolio_property_id: string }) => [v.portfolio_property_id, v]));
    };
    const two = await valuesOf(2);
    expect(two.get(property.stage)).toEqual(
      expect.objectContaining({ value: 'Series B', portfolio_property_option_id: DEMO_IDS.option(10), portfolio_property_option_ids: [DEMO_IDS.option(10)] }),
    );
    expect(two.get(property.employees)).toEqual(expect.objectContaining({ value: 84, portfolio_property_option_id: null, portfolio_property_option_ids: [] }));
    expect(two.get(property.founded)).toEqual(expect.objectContaining({ value: '2012-03-15' }));
    expect(two.get(property.totalInvested)).toEqual(expect.objectContaining({ value: 1000000 }));
    expect(two.has(property.tags)).toBe(false);
    expect(two.has(property.headquarters)).toBe(false);
    const one = await valuesOf(1);
    expect(one.get(property.tags)).toEqual(expect.objectContaining({ value: ['B2C', 'Marketplace'], portfolio_property_option_id: null }));
    expect(one.get(property.boardSeat)).toEqual(expect.objectContaining({ value: 'false' }));
  });

  it('returns formula-like text untouched', async () => {
    const answer = await get(emulator, '/portfolio_property_values', `portfolio_company_profile_id=${DEMO_IDS.profile(3)}`);
    const headquarters = answer.body.portfolio_property_values.find(
      (v: { portfolio_property_id: string }) => v.portfolio_property_id === property.headquarters,
    );
    expect(headquarters.value).toBe(FORMULA_TEXT);
  });

  it('answers an empty page with total_pages 0 for a profile without values', async () => {
    const answer = await get(emulator, '/portfolio_property_values', `portfolio_company_profile_id=${await freshProfile()}`);
    expect(answer.body).toEqual({ portfolio_property_values: [], meta: { total: 0, total_pages: 0, page: 1 } });
  });

  it('answers 400 for an unknown profile and 403 for one the token cannot access', async () => {
    expect((await get(emulator, '/portfolio_property_values', 'portfolio_company_profile_id=99999999-0000-4000-8000-000000000000')).status).toBe(400);
    expect((await get(emulator, '/portfolio_property_values', `portfolio_company_profile_id=${DEMO_IDS.profile(13)}`)).status).toBe(403);
  });
});

describe('GET /portfolio_property_values after a change', () => {
  // The listing keeps an index of the values while the store is unchanged: each change must show in the next listing.
  const listed = async (profileId: string) =>
    (await get(emulator, '/portfolio_property_values', `portfolio_company_profile_id=${profileId}`)).body.portfolio_property_values.map(
      (v: { portfolio_property_id: string; value: unknown }) => [v.portfolio_property_id, v.value],
    );

  it('lists a value written by a PUT, by a fixture and by a later PUT, each in the listing right after it', async () => {
    const profileId = await freshProfile();
    expect(await listed(profileId)).toEqual([]);
    expect((await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '42' })).status).toBe(201);
    expect(await listed(profileId)).toEqual([[property.employees, 42]]);
    await emulator.control.fixtures({
      portfolio_property_values: [{ portfolio_property_id: property.memo, portfolio_company_profile_id: profileId, value: 'Memo' }],
    });
    expect(await listed(profileId)).toEqual(
      expect.arrayContaining([
        [property.employees, 42],
        [property.memo, 'Memo'],
      ]),
    );
    expect((await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '43' })).status).toBe(200);
    expect(await listed(profileId)).toEqual(
      expect.arrayContaining([
        [property.employees, 43],
        [property.memo, 'Memo'],
      ]),
    );
  });
});

describe('PUT /portfolio_property_values', () => {
  it('answers 201 when it creates the value and 200 when it updates the same pair', async () => {
    const profileId = await freshProfile();
    const first = await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '42' });
    expect(first.status).toBe(201);
    expect(first.body.portfolio_property_value).toEqual({
      id: expect.any(String),
      value: 42,
      portfolio_property_id: property.employees,
      portfolio_company_profile_id: profileId,
      portfolio_property_option_id: null,
      portfolio_property_option_ids: [],
    });
    const second = await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '43.5' });
    expect(second.status).toBe(200);
    expect(second.body.portfolio_property_value).toEqual(expect.objectContaining({ id: first.body.portfolio_property_value.id, value: 43.5 }));
  });

  it.each([
    ['founded', '2020-02-29', '2020-02-29'],
    ['boardSeat', 'false', 'false'],
    ['headquarters', FORMULA_TEXT, FORMULA_TEXT],
    ['memo', 'line one\nline two', 'line one\nline two'],
    ['deck', 'https://example.com/deck.pdf', 'https://example.com/deck.pdf'],
    ['thesis', '<p>Rich</p>', '<p>Rich</p>'],
  ] as const)('writes a %s value from text', async (key, written, answered) => {
    const answer = await putValue({ portfolio_property_id: property[key], portfolio_company_profile_id: await freshProfile(), value: written });
    expect(answer.status).toBe(201);
    expect(answer.body.portfolio_property_value.value).toBe(answered);
  });

  it.each([
    ['employees', '12,5'],
    ['employees', 'twelve'],
    ['founded', '2021-02-30'],
    ['founded', '01/02/2021'],
    ['boardSeat', 'yes'],
    ['boardSeat', 'TRUE'],
    ['deck', 'javascript:alert(1)'],
    ['deck', 'example.com'],
  ] as const)('refuses %s value %j with 422 on field value', async (key, written) => {
    const answer = await putValue({ portfolio_property_id: property[key], portfolio_company_profile_id: await freshProfile(), value: written });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'value', message: expect.any(String) }]);
  });

  it('clears a value with an empty string', async () => {
    const profileId = await freshProfile();
    await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '7' });
    const cleared = await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: profileId, value: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.portfolio_property_value.value).toBeNull();
  });

  it('selects one option of a select property by id and answers its label', async () => {
    const answer = await putValue({
      portfolio_property_id: property.sector,
      portfolio_company_profile_id: await freshProfile(),
      portfolio_property_option_id: option.healthcare,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.portfolio_property_value).toEqual(
      expect.objectContaining({
        value: 'Healthcare',
        portfolio_property_option_id: option.healthcare,
        portfolio_property_option_ids: [option.healthcare],
      }),
    );
  });

  it('selects several options of a multiselect property and answers their labels in option order', async () => {
    const answer = await putValue({
      portfolio_property_id: property.tags,
      portfolio_company_profile_id: await freshProfile(),
      portfolio_property_option_ids: [option.ai, option.b2b, option.ai],
    });
    expect(answer.body.portfolio_property_value).toEqual(
      expect.objectContaining({
        value: ['B2B', 'AI'],
        portfolio_property_option_id: null,
        portfolio_property_option_ids: [option.b2b, option.ai],
      }),
    );
  });

  it('refuses an option of another property', async () => {
    const answer = await putValue({
      portfolio_property_id: property.sector,
      portfolio_company_profile_id: await freshProfile(),
      portfolio_property_option_id: option.seriesA,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe('portfolio_property_option_id');
    const many = await putValue({
      portfolio_property_id: property.tags,
      portfolio_company_profile_id: await freshProfile(),
      portfolio_property_option_ids: [option.b2b, option.fintech],
    });
    expect(many.body.errors[0].field).toBe('portfolio_property_option_ids');
  });

  it('refuses value together with an option field, and a missing form', async () => {
    const profileId = await freshProfile();
    const both = await putValue({
      portfolio_property_id: property.sector,
      portfolio_company_profile_id: profileId,
      value: 'Fintech',
      portfolio_property_option_id: option.fintech,
    });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([{ type: 'attribute_invalid', field: 'value', message: expect.stringContaining('must not be sent') }]);
    const labelForSelect = await putValue({ portfolio_property_id: property.sector, portfolio_company_profile_id: profileId, value: 'Fintech' });
    expect(labelForSelect.body.errors.map((e: { field: string }) => e.field)).toEqual(['value', 'portfolio_property_option_id']);
    const optionForNumber = await putValue({
      portfolio_property_id: property.employees,
      portfolio_company_profile_id: profileId,
      portfolio_property_option_ids: [],
    });
    expect(optionForNumber.body.errors.map((e: { field: string }) => e.field)).toEqual(['portfolio_property_option_ids', 'value']);
    const nothing = await putValue({ portfolio_property_id: property.tags, portfolio_company_profile_id: profileId });
    expect(nothing.body.errors).toEqual([
      { type: 'attribute_invalid', field: 'portfolio_property_option_ids', message: 'is required for a multiselect property' },
    ]);
  });

  it('refuses to write an auto-calculated investment property', async () => {
    const answer = await putValue({ portfolio_property_id: property.totalInvested, portfolio_company_profile_id: DEMO_IDS.profile(1), value: '1' });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'portfolio_property_id', message: expect.stringContaining('auto-calculated') }]);
  });

  it('refuses unknown ids with 422 and a profile the token cannot access with 403', async () => {
    const unknownProperty = await putValue({
      portfolio_property_id: '99999999-0000-4000-8000-000000000000',
      portfolio_company_profile_id: DEMO_IDS.profile(1),
      value: '1',
    });
    expect(unknownProperty.body.errors[0]).toEqual(expect.objectContaining({ type: 'attribute_invalid', field: 'portfolio_property_id' }));
    const foreignProperty = await putValue({ portfolio_property_id: property.harbor, portfolio_company_profile_id: DEMO_IDS.profile(1), value: '1' });
    expect(foreignProperty.body.errors[0].field).toBe('portfolio_property_id');
    const unknownProfile = await putValue({
      portfolio_property_id: property.employees,
      portfolio_company_profile_id: '99999999-0000-4000-8000-000000000000',
      value: '1',
    });
    expect(unknownProfile.body.errors[0].field).toBe('portfolio_company_profile_id');
    const hidden = await putValue({ portfolio_property_id: property.harbor, portfolio_company_profile_id: DEMO_IDS.profile(13), value: '1' });
    expect(hidden.status).toBe(403);
  });

  it('refuses a value that is not a string', async () => {
    const answer = await putValue({ portfolio_property_id: property.employees, portfolio_company_profile_id: DEMO_IDS.profile(1), value: 5 });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe('value');
  });
});

describe('GET /portfolio_property_options', () => {
  it('lists the options of a property without meta', async () => {
    const answer = await get(emulator, '/portfolio_property_options', `portfolio_property_id=${property.stage}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      portfolio_property_options: ['Seed', 'Series A', 'Series B', 'Growth'].map((label, i) => ({
        id: DEMO_IDS.option(8 + i),
        label,
        portfolio_property_id: property.stage,
      })),
    });
  });

  it('filters by label case-insensitively, matching the whole label only', async () => {
    const exact = await get(emulator, '/portfolio_property_options', `portfolio_property_id=${property.stage}&label=SERIES%20a`);
    expect(exact.body.portfolio_property_options).toEqual([{ id: option.seriesA, label: 'Series A', portfolio_property_id: property.stage }]);
    const partial = await get(emulator, '/portfolio_property_options', `portfolio_property_id=${property.stage}&label=A`);
    expect(partial.body.portfolio_property_options).toEqual([]);
  });

  it('answers an empty list for a property without options', async () => {
    expect((await get(emulator, '/portfolio_property_options', `portfolio_property_id=${property.employees}`)).body).toEqual({
      portfolio_property_options: [],
    });
  });

  it('answers 400 for a missing or unknown property, 403 for one the token cannot access', async () => {
    expect((await get(emulator, '/portfolio_property_options')).status).toBe(400);
    expect((await get(emulator, '/portfolio_property_options', 'portfolio_property_id=99999999-0000-4000-8000-000000000000')).status).toBe(400);
    expect((await get(emulator, '/portfolio_property_options', `portfolio_property_id=${property.harbor}`)).status).toBe(403);
  });
});
