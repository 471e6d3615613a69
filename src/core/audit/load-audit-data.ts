// Everything an audit reads from the API, in as few round trips as the lists allow.

import { ApiError } from '../errors';
import type { ApiClient } from '../api/client';
import type { ApiRequest, Requester } from '../api/requester';
import type { PortfolioCompanyProfile, PortfolioProperty, PortfolioPropertyOption, PortfolioPropertyValue } from '../api/types';
import { isAutoCalculated } from '../portfolio/auto-calculated';
import { requireUuid } from '../validate/uuid';
import type { AuditData, AuditOption, AuditProfile, AuditProperty, AuditSchema, AuditStoredValue } from './types';

type PageMeta = { total: number; total_pages: number; page: number };
type ListPage = { items: unknown[]; meta: PageMeta };

const PROFILES = { path: '/portfolio_company_profiles', key: 'portfolio_company_profiles' } as const;
const PROPERTIES = { path: '/portfolio_properties', key: 'portfolio_properties' } as const;
const VALUES = { path: '/portfolio_property_values', key: 'portfolio_property_values' } as const;
const OPTIONS_PATH = '/portfolio_property_options';

/**
 * Reads a fund's profiles, properties, every profile's values (every page) and the options of every
 * select and multiselect property. Round trips, whatever the size of the fund:
 * 1. page 1 of the profiles and of the properties, together;
 * 2. their further pages, together (only when a list has more than one page);
 * 3. page 1 of every profile's values and the options of every select/multiselect property, in one
 *    concurrent sendAll (the requester splits it into waves the rate budget allows);
 * 4. the further pages of the values of profiles with more than 25 values (only when there are any).
 * Requests have the shape PortfolioResource uses, so they are paced, retried and parsed the same way.
 */
export function loadAuditData(client: ApiClient, companyId: string): AuditData {
  const fundId = requireUuid(companyId, 'The company id');
  const requester = client.requester;
  const [profilePages, propertyPages] = readLists(requester, [
    { method: 'GET', path: PROFILES.path, query: { company_id: fundId } },
    { method: 'GET', path: PROPERTIES.path, query: { company_id: fundId } },
  ], [PROFILES.key, PROPERTIES.key]);
  const profiles = (profilePages ?? []).map((item) => toProfile(item as PortfolioCompanyProfile));
  const properties = auditOrder((propertyPages ?? []).map((item) => toProperty(item as PortfolioProperty)));
  const withOptions = properties.filter(hasOptions);

  const valueRequests: ApiRequest[] = profiles.map((profile) => valuesRequest(profile.id, 1));
  const optionRequests: ApiRequest[] = withOptions.map((property) => optionsRequest(property.id));
  const answers = requester.sendAll<Record<string, unknown>>([...valueRequests, ...optionRequests]);

  const options = readOptions(withOptions, answers.slice(valueRequests.length).map((answer) => answer.data), optionRequests);
  const firstPages = answers.slice(0, valueRequests.length).map((answer, index) => readPage(answer.data, VALUES.key, valueRequests[index]!));
  const morePages: Array<{ profile: number; request: ApiRequest }> = [];
  firstPages.forEach((page, index) => {
    for (let number = 2; number <= page.meta.total_pages; number++) morePages.push({ profile: index, request: valuesRequest(profiles[index]!.id, number) });
  });
  const valueItems = firstPages.map((page) => [...page.items]);
  if (morePages.length > 0) {
    const rest = requester.sendAll<Record<string, unknown>>(morePages.map((page) => page.request));
    rest.forEach((answer, index) => {
      const { profile, request } = morePages[index]!;
      valueItems[profile]!.push(...readPage(answer.data, VALUES.key, request).items);
    });
  }

  const values: AuditData['values'] = {};
  profiles.forEach((profile, index) => {
    values[profile.id] = storedValues(valueItems[index] as PortfolioPropertyValue[], properties);
  });
  return { companyId: fundId, profiles, properties, options, values };
}

/**
 * What write-back needs: the fund's properties (every page) and the options of every select and
 * multiselect property, fetched together. Read fresh for a push, so labels added since the audit was
 * built resolve.
 */
export function loadAuditSchema(client: ApiClient, companyId: string): AuditSchema {
  const fundId = requireUuid(companyId, 'The company id');
  const properties = auditOrder(client.portfolio.listProperties(fundId).map(toProperty));
  const withOptions = properties.filter(hasOptions);
  const requests = withOptions.map((property) => optionsRequest(property.id));
  const answers = requests.length > 0 ? client.requester.sendAll<Record<string, unknown>>(requests) : [];
  return { companyId: fundId, properties, options: readOptions(withOptions, answers.map((answer) => answer.data), requests) };
}

/** Custom properties in the API's order, then the auto-calculated ones: they are known by name, not by position. */
export function auditOrder(properties: readonly AuditProperty[]): AuditProperty[] {
  return [...properties.filter((p) => !p.autoCalculated), ...properties.filter((p) => p.autoCalculated)];
}

function hasOptions(property: AuditProperty): boolean {
  return property.dataType === 'select' || property.dataType === 'multiselect';
}

function toProfile(profile: PortfolioCompanyProfile): AuditProfile {
  return { id: profile.id.toLowerCase(), name: profile.name };
}

function toProperty(property: PortfolioProperty): AuditProperty {
  return { id: property.id.toLowerCase(), name: property.name, dataType: property.data_type, autoCalculated: isAutoCalculated(property.name) };
}

/** Same request as PortfolioResource.listValues, page by page. */
function valuesRequest(profileId: string, page: number): ApiRequest {
  return { method: 'GET', path: VALUES.path, query: { portfolio_company_profile_id: profileId, page } };
}

/** Same request as PortfolioResource.listOptions without a label: every option of the property. */
function optionsRequest(propertyId: string): ApiRequest {
  return { method: 'GET', path: OPTIONS_PATH, query: { portfolio_property_id: propertyId } };
}

function storedValues(items: readonly PortfolioPropertyValue[], properties: readonly AuditProperty[]): Record<string, AuditStoredValue> {
  const known = new Map(properties.map((property) => [property.id, property]));
  const byProperty: Record<string, AuditStoredValue> = {};
  for (const item of items) {
    const propertyId = item.portfolio_property_id.toLowerCase();
    const property = known.get(propertyId);
    // A value of a property the listing did not show has no column to go in.
    if (!property) continue;
    const single = item.portfolio_property_option_id ? [item.portfolio_property_option_id] : [];
    const optionIds = property.dataType === 'select' && single.length > 0 ? single : item.portfolio_property_option_ids ?? single;
    byProperty[propertyId] = { value: item.value ?? null, optionIds: optionIds.map((id) => id.toLowerCase()) };
  }
  return byProperty;
}

function readOptions(properties: readonly AuditProperty[], bodies: ReadonlyArray<Record<string, unknown>>, requests: readonly ApiRequest[]): Record<string, AuditOption[]> {
  const options: Record<string, AuditOption[]> = {};
  properties.forEach((property, index) => {
    const list = bodies[index]?.['portfolio_property_options'];
    if (!Array.isArray(list)) throw unexpected('the answer had no "portfolio_property_options" array', requests[index]!);
    options[property.id] = (list as PortfolioPropertyOption[]).map((option) => ({ id: option.id.toLowerCase(), label: option.label }));
  });
  return options;
}

/**
 * Reads several paginated lists together: every list's page 1 in one sendAll, then every further page
 * of every list in a second one. Items come back per list, in page order.
 */
function readLists(requester: Requester, requests: readonly ApiRequest[], keys: readonly string[]): unknown[][] {
  const firstRequests = requests.map((request) => withPage(request, 1));
  const first = requester.sendAll<Record<string, unknown>>(firstRequests).map((answer, index) => readPage(answer.data, keys[index]!, firstRequests[index]!));
  const items = first.map((page) => [...page.items]);
  const more: Array<{ list: number; request: ApiRequest }> = [];
  first.forEach((page, list) => {
    for (let number = 2; number <= page.meta.total_pages; number++) more.push({ list, request: withPage(requests[list]!, number) });
  });
  if (more.length > 0) {
    requester.sendAll<Record<string, unknown>>(more.map((page) => page.request)).forEach((answer, index) => {
      const { list, request } = more[index]!;
      items[list]!.push(...readPage(answer.data, keys[list]!, request).items);
    });
  }
  return items;
}

function withPage(request: ApiRequest, page: number): ApiRequest {
  return { ...request, query: { ...request.query, page } };
}

function readPage(body: Record<string, unknown>, key: string, request: ApiRequest): ListPage {
  const items = body[key];
  const meta = body['meta'] as Partial<PageMeta> | undefined;
  if (!Array.isArray(items) || !meta || typeof meta.total_pages !== 'number') throw unexpected(`the list had no "${key}" array or no meta.total_pages`, request);
  return { items, meta: meta as PageMeta };
}

function unexpected(message: string, request: ApiRequest): ApiError {
  return new ApiError(200, [{ type: 'unexpected_response', message }], request.method, request.path);
}
