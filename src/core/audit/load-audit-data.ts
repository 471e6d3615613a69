// Everything an audit reads from the API, in as few round trips as the lists allow.

import type { ApiClient } from '../api/client';
import type { PortfolioCompanyProfile, PortfolioProperty, PortfolioPropertyOption, PortfolioPropertyValue } from '../api/types';
import { isAutoCalculated } from '../portfolio/auto-calculated';
import { requireUuid } from '../validate/uuid';
import type { AuditData, AuditOption, AuditProfile, AuditProperty, AuditSchema, AuditStoredValue } from './types';

/**
 * Reads a fund's profiles, properties, every profile's values and every select's options: at most four
 * round trips whatever the size of the fund (page 1 of each list, then the further pages, together).
 */
export function loadAuditData(client: ApiClient, companyId: string): AuditData {
  const fundId = requireUuid(companyId, 'The company id');
  const listed = client.portfolio.listProfilesAndProperties(fundId);
  const { profileIds, optionPropertyIds } = auditReadsOf(listed.profiles, listed.properties);
  const read = client.portfolio.listValuesAndOptions(profileIds, optionPropertyIds);
  return auditDataOf(fundId, { ...listed, ...read });
}

/** What the profiles and properties lists call for next: every profile's values, every select's options. */
export function auditReadsOf(
  profiles: readonly PortfolioCompanyProfile[],
  properties: readonly PortfolioProperty[],
): { profileIds: string[]; optionPropertyIds: string[] } {
  return {
    profileIds: profiles.map((profile) => toProfile(profile).id),
    optionPropertyIds: withOptions(auditProperties(properties)).map((property) => property.id),
  };
}

/**
 * The audit's data from its lists as the API sent them, `values` and `options` in the order auditReadsOf
 * names them: for the read above and for the build job, which reads the same lists over several steps.
 */
export function auditDataOf(
  companyId: string,
  lists: {
    profiles: readonly PortfolioCompanyProfile[];
    properties: readonly PortfolioProperty[];
    values: ReadonlyArray<readonly PortfolioPropertyValue[]>;
    options: ReadonlyArray<readonly PortfolioPropertyOption[]>;
  },
): AuditData {
  const schema = schemaOf(companyId, auditProperties(lists.properties), lists.options);
  const profiles = lists.profiles.map(toProfile);
  const values = Object.fromEntries(profiles.map((profile, index) => [profile.id, storedValues(lists.values[index] ?? [], schema.properties)]));
  return { ...schema, profiles, values };
}

/** What write-back needs, read fresh for a push so labels added since the audit was built resolve. */
export function loadAuditSchema(client: ApiClient, companyId: string): AuditSchema {
  const fundId = requireUuid(companyId, 'The company id');
  // Converted and ordered once: the options to read and the schema come from the same list.
  const properties = auditProperties(client.portfolio.listProperties(fundId));
  const { options } = client.portfolio.listValuesAndOptions(
    [],
    withOptions(properties).map((property) => property.id),
  );
  return schemaOf(fundId, properties, options);
}

/** The properties (already in audit order), and the options of each select and multiselect (in auditReadsOf's order). */
function schemaOf(companyId: string, properties: AuditProperty[], optionLists: ReadonlyArray<readonly PortfolioPropertyOption[]>): AuditSchema {
  const options = Object.fromEntries(withOptions(properties).map((property, index) => [property.id, (optionLists[index] ?? []).map(toOption)]));
  return { companyId, properties, options };
}

/** The API's properties as the audit knows them, in audit order. */
function auditProperties(listed: readonly PortfolioProperty[]): AuditProperty[] {
  return auditOrder(listed.map(toProperty));
}

/** The selects and multiselects, in order: the properties whose options are read. */
function withOptions(properties: readonly AuditProperty[]): AuditProperty[] {
  return properties.filter(hasOptions);
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

export function toOption(option: PortfolioPropertyOption): AuditOption {
  return { id: option.id.toLowerCase(), label: option.label };
}

function toProperty(property: PortfolioProperty): AuditProperty {
  return { id: property.id.toLowerCase(), name: property.name, dataType: property.data_type, autoCalculated: isAutoCalculated(property.name) };
}

export function storedValues(items: readonly PortfolioPropertyValue[], properties: readonly AuditProperty[]): Record<string, AuditStoredValue> {
  const known = new Map(properties.map((property) => [property.id, property]));
  const byProperty: Record<string, AuditStoredValue> = {};
  for (const item of items) {
    const propertyId = item.portfolio_property_id.toLowerCase();
    const property = known.get(propertyId);
    // A value of a property the listing did not show has no column to go in.
    if (!property) continue;
    const single = item.portfolio_property_option_id ? [item.portfolio_property_option_id] : [];
    const optionIds = property.dataType === 'select' && single.length > 0 ? single : (item.portfolio_property_option_ids ?? single);
    byProperty[propertyId] = { value: item.value ?? null, optionIds: optionIds.map((id) => id.toLowerCase()) };
  }
  return byProperty;
}
