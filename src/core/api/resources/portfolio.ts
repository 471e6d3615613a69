// The investor product's endpoints: profiles, portfolio notes, properties, values and options.

import { fetchAllPages, ownedList, pageRequest, readLists, readPage, type ListRead } from '../paginate';
import { withCompanyId } from './ids';
import { metricsOf } from './metrics';
import { fillPath } from '../query';
import type { ApiRequest, Requester, Settled } from '../requester';
import type {
  Metric,
  PortfolioCompanyProfile,
  PortfolioCompanyProfileInput,
  PortfolioNote,
  PortfolioProperty,
  PortfolioPropertyOption,
  PortfolioPropertyValue,
  PortfolioPropertyValueInput,
} from '../types';
import { requireUuid } from '../../validate/uuid';

/** Each list once, so a batch read asks exactly what the single read does. */
const profilesOf = (companyId: string): ListRead => ownedList('portfolio_company_profiles', 'company_id', companyId);
const propertiesOf = (companyId: string): ListRead => ownedList('portfolio_properties', 'company_id', companyId);
const valuesOf = (profileId: string): ListRead => ownedList('portfolio_property_values', 'portfolio_company_profile_id', profileId);
/** Not paginated: the API sends every option (matching `label` case-insensitively, when given) at once. */
const optionsOf = (propertyId: string, label?: string): ListRead => ({
  ...ownedList('portfolio_property_options', 'portfolio_property_id', propertyId, { label }),
  whole: true,
});

/** One of the lists an audit reads, named so a job can keep it in its state and read it page by page. */
export type AuditList =
  | { kind: 'profiles' | 'properties'; companyId: string }
  | { kind: 'values'; profileId: string }
  | { kind: 'options'; propertyId: string };

/** One page of a list as readListPages answers it: its items and the list's page count, or why not. */
export type PageRead = { ok: true; items: unknown[]; totalPages: number } | { ok: false; error: Error };

function auditListRead(list: AuditList): ListRead {
  switch (list.kind) {
    case 'profiles':
      return profilesOf(list.companyId);
    case 'properties':
      return propertiesOf(list.companyId);
    case 'values':
      return valuesOf(list.profileId);
    case 'options':
      return optionsOf(list.propertyId);
  }
}

export class PortfolioResource {
  constructor(private readonly requester: Requester) {}

  listProfiles(companyId: string): PortfolioCompanyProfile[] {
    return fetchAllPages(this.requester, profilesOf(companyId));
  }

  /** Creates a profile; never retried blindly (the name is unique, a repeat would fail or duplicate). */
  createProfile(input: PortfolioCompanyProfileInput): PortfolioCompanyProfile {
    return this.requester.sendRecord('POST', '/portfolio_company_profiles', 'portfolio_company_profile', withCompanyId(input));
  }

  updateProfile(profileId: string, input: PortfolioCompanyProfileInput): PortfolioCompanyProfile {
    const path = fillPath('/portfolio_company_profiles/{id}', { id: requireUuid(profileId, 'The portfolio company profile id') });
    return this.requester.sendRecord('PUT', path, 'portfolio_company_profile', withCompanyId(input));
  }

  listNotes(profileId: string): PortfolioNote[] {
    return fetchAllPages(this.requester, ownedList('portfolio_notes', 'portfolio_company_profile_id', profileId));
  }

  /** Custom properties and, in the same listing, the auto-calculated investment properties. */
  listProperties(companyId: string): PortfolioProperty[] {
    return fetchAllPages(this.requester, propertiesOf(companyId));
  }

  /** A fund's profiles and its properties read together: two round trips at most, whatever their length. */
  listProfilesAndProperties(companyId: string): { profiles: PortfolioCompanyProfile[]; properties: PortfolioProperty[] } {
    const [profiles = [], properties = []] = readLists(this.requester, [profilesOf(companyId), propertiesOf(companyId)]);
    return { profiles: profiles as PortfolioCompanyProfile[], properties: properties as PortfolioProperty[] };
  }

  /**
   * A fund's profiles and its whole metric listing read together (the fund directory of PORTFOLIO_VALUE and the
   * grid): two round trips at most, where reading one after the other takes four.
   */
  listProfilesAndMetrics(companyId: string): { profiles: PortfolioCompanyProfile[]; metrics: Metric[] } {
    const [profiles = [], metrics = []] = readLists(this.requester, [profilesOf(companyId), metricsOf(companyId)]);
    return { profiles: profiles as PortfolioCompanyProfile[], metrics: metrics as Metric[] };
  }

  listValues(profileId: string): PortfolioPropertyValue[] {
    return fetchAllPages(this.requester, valuesOf(profileId));
  }

  /** Options of a select or multiselect property. */
  listOptions(propertyId: string, label?: string): PortfolioPropertyOption[] {
    return fetchAllPages(this.requester, optionsOf(propertyId, label));
  }

  /** Every value of each profile and option of each property, a list per id in order: two round trips at most. */
  listValuesAndOptions(
    profileIds: readonly string[],
    propertyIds: readonly string[],
  ): { values: PortfolioPropertyValue[][]; options: PortfolioPropertyOption[][] } {
    const lists = readLists(this.requester, [...profileIds.map((id) => valuesOf(id)), ...propertyIds.map((id) => optionsOf(id))]);
    return { values: lists.slice(0, profileIds.length) as PortfolioPropertyValue[][], options: lists.slice(profileIds.length) as PortfolioPropertyOption[][] };
  }

  /** Creates (201) or updates (200) a profile's property value: a PUT per input, sent together, each one's outcome. */
  upsertValues(inputs: readonly PortfolioPropertyValueInput[]): Array<Settled<PortfolioPropertyValue>> {
    const requests = inputs.map(
      (input): ApiRequest => ({
        method: 'PUT',
        path: '/portfolio_property_values',
        body: {
          portfolio_property_value: {
            ...input,
            portfolio_property_id: requireUuid(input.portfolio_property_id, 'The portfolio property id'),
            portfolio_company_profile_id: requireUuid(input.portfolio_company_profile_id, 'The portfolio company profile id'),
          },
        },
      }),
    );
    return this.requester
      .sendAllSettled<{ portfolio_property_value: PortfolioPropertyValue }>(requests)
      .map((settled) => (settled.ok ? { ok: true, result: { status: settled.result.status, data: settled.result.data.portfolio_property_value } } : settled));
  }

  /** Single pages of the audit's lists, sent together, each its own outcome: a job asks again only for what failed. */
  readListPages(pages: ReadonlyArray<{ list: AuditList; page: number }>): PageRead[] {
    const reads = pages.map(({ list }) => auditListRead(list));
    const requests = reads.map((read, i) => pageRequest(read, pages[i]!.page));
    return this.requester.sendAllSettled<Record<string, unknown>>(requests).map((settled, i): PageRead => {
      if (!settled.ok) return settled;
      try {
        const { items, meta } = readPage(settled.result.data, reads[i]!);
        return { ok: true, items, totalPages: Math.max(1, meta.total_pages) };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    });
  }
}
