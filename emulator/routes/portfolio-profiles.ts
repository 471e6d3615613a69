// GET, POST /portfolio_company_profiles and PUT /portfolio_company_profiles/{id}.

import { randomUUID } from 'node:crypto';
import type { components } from '../../src/core/api/schema.gen';
import { requireInvestorCompany } from '../access';
import { attributeInvalid, parameterInvalid } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import type { EmulatorState, ProfileRecord } from '../records';
import { profileJson } from '../serializers';
import { byId } from '../store';

type ProfileInput = components['schemas']['PortfolioCompanyProfileInput'];

/** Registers listPortfolioCompanyProfiles, createPortfolioCompanyProfile and updatePortfolioCompanyProfile. */
export function registerProfileRoutes(register: RegisterOperation): void {
  register('listPortfolioCompanyProfiles', ({ query, user }, { store }) => {
    requireInvestorCompany(store, user, query.company_id);
    const profiles = store.state.portfolio_company_profiles.filter((profile) => profile.company_id === query.company_id);
    const { items, meta } = paginate(profiles, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { portfolio_company_profiles: items.map(profileJson), meta } };
  });

  register('createPortfolioCompanyProfile', ({ body, user }, { store, clock }) => {
    const input = body.portfolio_company_profile;
    requireInvestorCompany(store, user, input.company_id);
    checkInput(store.state, input, undefined);
    const profile: ProfileRecord = {
      id: randomUUID(),
      company_id: input.company_id,
      name: input.name,
      website_url: input.website_url ?? null,
      currency: input.currency ?? null,
      primary_contact_id: input.primary_contact_id ?? null,
      fiscal_year_end_month: input.fiscal_year_end_month ?? null,
      created_at: clock.isoNow(),
    };
    store.commit((state) => state.portfolio_company_profiles.push(profile));
    return { status: 201, body: { portfolio_company_profile: profileJson(profile) } };
  });

  register('updatePortfolioCompanyProfile', ({ path, body, user }, { store }) => {
    const profile = byId(store.state.portfolio_company_profiles, path.id);
    // 404 is not listed for this operation: an id naming no profile is a bad parameter.
    if (!profile) throw parameterInvalid('id', `names no portfolio company profile: ${path.id}`);
    requireInvestorCompany(store, user, profile.company_id);
    const input = body.portfolio_company_profile;
    if (input.company_id !== profile.company_id) {
      throw attributeInvalid('company_id', 'must be the company the profile belongs to');
    }
    checkInput(store.state, input, profile.id);
    store.commit(() => {
      profile.name = input.name;
      // Left-out fields keep their value; an explicit null clears it.
      if (input.website_url !== undefined) profile.website_url = input.website_url;
      if (input.currency !== undefined) profile.currency = input.currency;
      if (input.primary_contact_id !== undefined) profile.primary_contact_id = input.primary_contact_id;
      if (input.fiscal_year_end_month !== undefined) profile.fiscal_year_end_month = input.fiscal_year_end_month;
    });
    return { status: 200, body: { portfolio_company_profile: profileJson(profile) } };
  });
}

function checkInput(state: EmulatorState, input: ProfileInput, ownId: string | undefined): void {
  const name = input.name.toLowerCase();
  const taken = state.portfolio_company_profiles.some(
    (other) => other.id !== ownId && other.company_id === input.company_id && other.name.toLowerCase() === name,
  );
  if (taken) throw attributeInvalid('name', 'has already been taken');
  const contactId = input.primary_contact_id;
  if (contactId && byId(state.contacts, contactId)?.company_id !== input.company_id) {
    throw attributeInvalid('primary_contact_id', `names no contact of this company: ${contactId}`);
  }
}
