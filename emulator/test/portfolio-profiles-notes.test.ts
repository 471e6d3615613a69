// Portfolio company profiles and portfolio notes (investor product only), from the spec.

import { DEMO_IDS, FORMULA_TEXT } from '../demo-data';
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
const create = (profile: Record<string, unknown>) => call(emulator, 'POST', '/portfolio_company_profiles', { body: { portfolio_company_profile: profile } });
const update = (id: string, profile: Record<string, unknown>) =>
  call(emulator, 'PUT', `/portfolio_company_profiles/${id}`, { body: { portfolio_company_profile: profile } });

describe('GET /portfolio_company_profiles', () => {
  it('lists the 32 demo profiles of the fund, 25 a page, with every field present', async () => {
    const answer = await get(emulator, '/portfolio_company_profiles', `company_id=${fund}`);
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ total: 32, total_pages: 2, page: 1 });
    expect(answer.body.portfolio_company_profiles[1]).toEqual({
      id: DEMO_IDS.profile(2),
      name: 'Bluebird Health',
      website_url: 'https://bluebird-health.example.com',
      currency: 'EUR',
      created_at: '2018-02-15T12:00:00.000Z',
      company_id: fund,
      primary_contact_id: DEMO_IDS.contact(3),
      fiscal_year_end_month: 3,
    });
    const months = answer.body.portfolio_company_profiles.map((p: { fiscal_year_end_month: number | null }) => p.fiscal_year_end_month);
    // The first twelve, then (after Blue Harbor's 13) the grown fund's 14 on, fiscal years ending in many months.
    expect(months).toEqual([12, 3, null, null, 6, null, null, null, null, null, null, null, 12, 6, 1, 9, 12, 3, null, 12, 6, 3, 12, 9, 12]);
    const second = await get(emulator, '/portfolio_company_profiles', `company_id=${fund}&page=2`);
    // Two companies the add-in reads as one name (trimmed, any case), which the service holds as two.
    expect(second.body.portfolio_company_profiles.map((p: { name: string }) => p.name)).toEqual([
      'Atlas Freight',
      'Beacon Insurance',
      'Cinder Studios',
      'Delta Grid',
      'Ember Batteries',
      'Cirrus Systems ',
      'Foxglove Pharma',
    ]);
  });

  it('answers 403 for a startup company, which has no investor product', async () => {
    const answer = await get(emulator, '/portfolio_company_profiles', `company_id=${DEMO_IDS.startup}`);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ errors: [{ type: 'forbidden' }] });
  });
});

describe('POST /portfolio_company_profiles', () => {
  it('creates a profile and answers 201 with nulls for what it was not given', async () => {
    const answer = await create({ name: 'Nimbus Cloud', company_id: fund });
    expect(answer.status).toBe(201);
    expect(answer.body.portfolio_company_profile).toEqual({
      id: expect.any(String),
      name: 'Nimbus Cloud',
      website_url: null,
      currency: null,
      created_at: expect.any(String),
      company_id: fund,
      primary_contact_id: null,
      fiscal_year_end_month: null,
    });
  });

  it('accepts every optional field', async () => {
    const answer = await create({
      name: 'Orbit Labs',
      company_id: fund,
      website_url: 'https://orbit.example.com',
      currency: 'CHF',
      primary_contact_id: DEMO_IDS.contact(1),
      fiscal_year_end_month: 9,
    });
    expect(answer.body.portfolio_company_profile).toEqual(
      expect.objectContaining({ currency: 'CHF', fiscal_year_end_month: 9, primary_contact_id: DEMO_IDS.contact(1) }),
    );
  });

  it('answers 422 on a name already used in the fund, whatever its case', async () => {
    const answer = await create({ name: 'aurora robotics', company_id: fund });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'name', message: 'has already been taken' }]);
  });

  it.each([
    [{ fiscal_year_end_month: 0 }, 'fiscal_year_end_month'],
    [{ fiscal_year_end_month: 13 }, 'fiscal_year_end_month'],
    [{ website_url: 'not a url' }, 'website_url'],
    [{ website_url: 'ftp://files.example.com' }, 'website_url'],
    [{ currency: 'usd' }, 'currency'],
    [{ currency: 'EURO' }, 'currency'],
    [{ primary_contact_id: DEMO_IDS.contact(9) }, 'primary_contact_id'],
  ])('answers 422 for %j', async (extra, field) => {
    const answer = await create({ name: `Bad ${field} ${JSON.stringify(extra)}`, company_id: fund, ...extra });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field, message: expect.any(String) }]);
  });

  it('answers 403 for a fund the token cannot access', async () => {
    expect((await create({ name: 'X', company_id: DEMO_IDS.otherFund })).status).toBe(403);
  });
});

describe('PUT /portfolio_company_profiles/{id}', () => {
  it('updates the given fields, keeps the others and clears explicit nulls', async () => {
    const created = await create({ name: 'Quartz AI', company_id: fund, currency: 'USD', website_url: 'https://quartz.example.com' });
    const id = created.body.portfolio_company_profile.id;
    const answer = await update(id, { name: 'Quartz AI', company_id: fund, fiscal_year_end_month: 6, website_url: null });
    expect(answer.status).toBe(200);
    expect(answer.body.portfolio_company_profile).toEqual(expect.objectContaining({ currency: 'USD', website_url: null, fiscal_year_end_month: 6 }));
  });

  it('answers 422 when renaming onto another profile name', async () => {
    const answer = await update(DEMO_IDS.profile(12), { name: 'Aurora Robotics', company_id: fund });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe('name');
  });

  it('answers 400 parameter_invalid with field id for a profile that does not exist (404 is not listed)', async () => {
    const answer = await update('99999999-0000-4000-8000-000000000000', { name: 'X', company_id: fund });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual(expect.objectContaining({ type: 'parameter_invalid', field: 'id' }));
    const malformed = await update('not-a-uuid', { name: 'X', company_id: fund });
    expect(malformed.status).toBe(400);
  });

  it('answers 403 for a profile of a fund the token cannot access', async () => {
    expect((await update(DEMO_IDS.profile(13), { name: 'X', company_id: DEMO_IDS.otherFund })).status).toBe(403);
  });
});

describe('GET /portfolio_notes', () => {
  it('answers notes newest first with content, 25 per page', async () => {
    const first = await get(emulator, '/portfolio_notes', `portfolio_company_profile_id=${DEMO_IDS.profile(1)}`);
    expect(first.body.meta).toEqual({ total: 27, total_pages: 2, page: 1 });
    expect(first.body.portfolio_notes[0]).toEqual({
      id: DEMO_IDS.portfolioNote(27),
      name: 'Monthly update 2025-03',
      portfolio_company_profile_id: DEMO_IDS.profile(1),
      content: 'Revenue and hiring for month 3 of 2025.',
      created_at: '2025-03-05T08:00:00.000Z',
    });
    expect(first.body.portfolio_notes[0]).not.toHaveProperty('plaintext_content');
    const second = await get(emulator, '/portfolio_notes', `portfolio_company_profile_id=${DEMO_IDS.profile(1)}&page=2`);
    expect(second.body.portfolio_notes.map((n: { id: string }) => n.id)).toEqual([DEMO_IDS.portfolioNote(2), DEMO_IDS.portfolioNote(1)]);
  });

  it('keeps formula-like and null content as they are', async () => {
    const three = await get(emulator, '/portfolio_notes', `portfolio_company_profile_id=${DEMO_IDS.profile(3)}`);
    expect(three.body.portfolio_notes[0].content).toBe(FORMULA_TEXT);
    const four = await get(emulator, '/portfolio_notes', `portfolio_company_profile_id=${DEMO_IDS.profile(4)}`);
    expect(four.body.portfolio_notes[0].content).toBeNull();
  });

  it('answers 400 for an unknown profile and 403 for a profile the token cannot access', async () => {
    const unknown = await get(emulator, '/portfolio_notes', 'portfolio_company_profile_id=99999999-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('portfolio_company_profile_id');
    expect((await get(emulator, '/portfolio_notes', `portfolio_company_profile_id=${DEMO_IDS.profile(13)}`)).status).toBe(403);
  });
});

describe('GET /portfolio_notes/{id}', () => {
  it('answers one note', async () => {
    const answer = await get(emulator, `/portfolio_notes/${DEMO_IDS.portfolioNote(28)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.portfolio_note).toEqual(expect.objectContaining({ name: 'Board meeting', content: expect.stringContaining('## Decisions') }));
  });

  it('answers 404 record_missing for an unknown or malformed id', async () => {
    for (const id of ['99999999-0000-4000-8000-000000000000', 'nope']) {
      const answer = await get(emulator, `/portfolio_notes/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0].type).toBe('record_missing');
    }
  });

  it('answers 403 for a note of a fund the token cannot access', async () => {
    expect((await get(emulator, `/portfolio_notes/${DEMO_IDS.portfolioNote(34)}`)).status).toBe(403);
  });
});
