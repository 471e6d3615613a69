// GET and PUT /portfolio_property_values.

import { randomUUID } from 'node:crypto';
import { requireInvestorCompany } from '../access';
import { attributeInvalid, attributesInvalid, parameterInvalid } from '../errors';
import type { BodyOf, RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import { parseWrittenValue, writeFormOf, type WriteForm } from '../property-values';
import type { EmulatorState, OptionRecord, PropertyRecord, PropertyValueRecord } from '../records';
import { propertyValueJson } from '../serializers';
import { byId, type Store } from '../store';
import { propertiesOf } from './portfolio-properties';

type ValueInput = BodyOf<'upsertPortfolioPropertyValue'>['portfolio_property_value'];

const WRITE_FORMS: WriteForm[] = ['value', 'portfolio_property_option_id', 'portfolio_property_option_ids'];

/** Registers listPortfolioPropertyValues and upsertPortfolioPropertyValue. */
export function registerPropertyValueRoutes(register: RegisterOperation): void {
  register('listPortfolioPropertyValues', ({ query, user }, { store }) => {
    const profile = byId(store.state.portfolio_company_profiles, query.portfolio_company_profile_id);
    if (!profile) throw parameterInvalid('portfolio_company_profile_id', 'names no portfolio company profile');
    requireInvestorCompany(store, user, profile.company_id);
    const properties = propertiesOf(store.state, profile.company_id);
    const ofProfile = valuesOfProfile(store, profile.id);
    const held = properties.flatMap((property) => {
      const record = ofProfile.get(property.id);
      return record ? [{ record, property }] : [];
    });
    // Only the page's values are written out, each with its property's options: not every value of the profile.
    const { items, meta } = paginate(held, query.page ?? 1, DEFAULT_PAGE_SIZE);
    const page = items.map(({ record, property }) => propertyValueJson(record, property, optionsOf(store.state, property.id)));
    return { status: 200, body: { portfolio_property_values: page, meta } };
  });

  register('upsertPortfolioPropertyValue', ({ body, user }, { store }) => {
    const input = body.portfolio_property_value;
    const profile = byId(store.state.portfolio_company_profiles, input.portfolio_company_profile_id);
    if (!profile) throw attributeInvalid('portfolio_company_profile_id', 'names no portfolio company profile');
    requireInvestorCompany(store, user, profile.company_id);
    const property = byId(store.state.portfolio_properties, input.portfolio_property_id);
    if (!property || property.company_id !== profile.company_id) {
      throw attributeInvalid('portfolio_property_id', "names no portfolio property of the profile's company");
    }
    if (property.auto_calculated) {
      throw attributeInvalid('portfolio_property_id', 'is an auto-calculated investment property and cannot be written');
    }
    const options = optionsOf(store.state, property.id);
    const written = readWrittenForm(input, property, options);

    const existing = store.state.portfolio_property_values.find(
      (value) => value.portfolio_property_id === property.id && value.portfolio_company_profile_id === profile.id,
    );
    const record: PropertyValueRecord = existing ?? {
      id: randomUUID(),
      portfolio_property_id: property.id,
      portfolio_company_profile_id: profile.id,
      value: null,
      option_ids: [],
    };
    store.commit((state) => {
      record.value = written.value;
      record.option_ids = written.optionIds;
      if (!existing) state.portfolio_property_values.push(record);
    });
    return {
      status: existing ? 200 : 201,
      body: { portfolio_property_value: propertyValueJson(record, property, options) },
    };
  });
}

/**
 * Each profile's values by property, the first record of a pair winning (as a find did), kept while the store is
 * unchanged. A scan of every value of every fund for each page was most of a large audit's test time: a build
 * of 250 profiles × 100 properties reads 1,000 pages, each scanning 25,000 values.
 */
const valueIndexes = new WeakMap<Store, { version: number; values: PropertyValueRecord[]; byProfile: Map<string, Map<string, PropertyValueRecord>> }>();

function valuesOfProfile(store: Store, profileId: string): Map<string, PropertyValueRecord> {
  const values = store.state.portfolio_property_values;
  let valueIndex = valueIndexes.get(store);
  if (!valueIndex || valueIndex.version !== store.version || valueIndex.values !== values) {
    const byProfile = new Map<string, Map<string, PropertyValueRecord>>();
    for (const value of values) {
      let ofProfile = byProfile.get(value.portfolio_company_profile_id);
      if (!ofProfile) byProfile.set(value.portfolio_company_profile_id, (ofProfile = new Map()));
      if (!ofProfile.has(value.portfolio_property_id)) ofProfile.set(value.portfolio_property_id, value);
    }
    valueIndex = { version: store.version, values, byProfile };
    valueIndexes.set(store, valueIndex);
  }
  return valueIndex.byProfile.get(profileId) ?? new Map();
}

function optionsOf(state: EmulatorState, propertyId: string): OptionRecord[] {
  return state.portfolio_property_options.filter((option) => option.portfolio_property_id === propertyId);
}

/** Checks that exactly the form the property's type takes was sent, and parses it. */
function readWrittenForm(input: ValueInput, property: PropertyRecord, options: OptionRecord[]): { value: string | null; optionIds: string[] } {
  const expected = writeFormOf(property.data_type);
  const problems = WRITE_FORMS.filter((form) => form !== expected && input[form] !== undefined).map((form) => ({
    field: form,
    message: `must not be sent for a ${property.data_type} property (send ${expected})`,
  }));
  if (input[expected] === undefined) {
    problems.push({ field: expected, message: `is required for a ${property.data_type} property` });
  }
  if (problems.length > 0) throw attributesInvalid(problems);

  if (expected === 'value') {
    const parsed = parseWrittenValue(property.data_type, input.value ?? '');
    if ('problem' in parsed) throw attributeInvalid('value', parsed.problem);
    return { value: parsed.stored, optionIds: [] };
  }
  const ids =
    expected === 'portfolio_property_option_id'
      ? input.portfolio_property_option_id
        ? [input.portfolio_property_option_id]
        : []
      : [...new Set(input.portfolio_property_option_ids ?? [])];
  const unknown = ids.find((id) => !options.some((option) => option.id === id));
  if (unknown) throw attributeInvalid(expected, `names no option of this property: ${unknown}`);
  return { value: null, optionIds: ids };
}
