// The investor product's endpoints: profiles, portfolio notes, properties, values and options.

import { fetchAllPages } from '../paginate';
import { fillPath } from '../query';
import type { ApiResult, Requester } from '../requester';
import type {
  PortfolioCompanyProfile,
  PortfolioCompanyProfileInput,
  PortfolioNote,
  PortfolioProperty,
  PortfolioPropertyOption,
  PortfolioPropertyValue,
  PortfolioPropertyValueInput,
} from '../types';
import { requireUuid } from '../../validate/uuid';

export class PortfolioResource {
  constructor(private readonly requester: Requester) {}

  listProfiles(companyId: string): PortfolioCompanyProfile[] {
    return fetchAllPages<PortfolioCompanyProfile>(this.requester, {
      method: 'GET',
      path: '/portfolio_company_profiles',
      query: { company_id: requireUuid(companyId, 'The company id') },
    }, 'portfolio_company_profiles');
  }

  /** Creates a profile; never retried blindly (the name is unique, a repeat would fail or duplicate). */
  createProfile(input: PortfolioCompanyProfileInput): PortfolioCompanyProfile {
    return this.requester.send<{ portfolio_company_profile: PortfolioCompanyProfile }>({
      method: 'POST',
      path: '/portfolio_company_profiles',
      body: { portfolio_company_profile: { ...input, company_id: requireUuid(input.company_id, 'The company id') } },
    }).data.portfolio_company_profile;
  }

  updateProfile(profileId: string, input: PortfolioCompanyProfileInput): PortfolioCompanyProfile {
    return this.requester.send<{ portfolio_company_profile: PortfolioCompanyProfile }>({
      method: 'PUT',
      path: fillPath('/portfolio_company_profiles/{id}', { id: requireUuid(profileId, 'The portfolio company profile id') }),
      body: { portfolio_company_profile: { ...input, company_id: requireUuid(input.company_id, 'The company id') } },
    }).data.portfolio_company_profile;
  }

  listNotes(profileId: string): PortfolioNote[] {
    return fetchAllPages<PortfolioNote>(this.requester, {
      method: 'GET',
      path: '/portfolio_notes',
      query: { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') },
    }, 'portfolio_notes');
  }

  getNote(noteId: string): PortfolioNote {
    return this.requester.send<{ portfolio_note: PortfolioNote }>({
      method: 'GET',
      path: fillPath('/portfolio_notes/{id}', { id: requireUuid(noteId, 'The portfolio note id') }),
    }).data.portfolio_note;
  }

  /** Custom properties and, in the same listing, the auto-calculated investment properties. */
  listProperties(companyId: string): PortfolioProperty[] {
    return fetchAllPages<PortfolioProperty>(this.requester, {
      method: 'GET',
      path: '/portfolio_properties',
      query: { company_id: requireUuid(companyId, 'The company id') },
    }, 'portfolio_properties');
  }

  listValues(profileId: string): PortfolioPropertyValue[] {
    return fetchAllPages<PortfolioPropertyValue>(this.requester, {
      method: 'GET',
      path: '/portfolio_property_values',
      query: { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') },
    }, 'portfolio_property_values');
  }

  /** Creates (201) or updates (200) the value of one property for one profile. */
  upsertValue(input: PortfolioPropertyValueInput): ApiResult<PortfolioPropertyValue> {
    const body = {
      portfolio_property_value: {
        ...input,
        portfolio_property_id: requireUuid(input.portfolio_property_id, 'The portfolio property id'),
        portfolio_company_profile_id: requireUuid(input.portfolio_company_profile_id, 'The portfolio company profile id'),
      },
    };
    const result = this.requester.send<{ portfolio_property_value: PortfolioPropertyValue }>({ method: 'PUT', path: '/portfolio_property_values', body });
    return { status: result.status, data: result.data.portfolio_property_value };
  }

  /** Options of a select or multiselect property; not paginated. `label` matches case-insensitively. */
  listOptions(propertyId: string, label?: string): PortfolioPropertyOption[] {
    return this.requester.send<{ portfolio_property_options: PortfolioPropertyOption[] }>({
      method: 'GET',
      path: '/portfolio_property_options',
      query: { portfolio_property_id: requireUuid(propertyId, 'The portfolio property id'), label },
    }).data.portfolio_property_options;
  }
}
