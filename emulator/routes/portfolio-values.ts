// GET and PUT /portfolio_property_values.

import { randomUUID } from 'node:crypto';
import { requireInvestorCompany } from '../access';
import { attributeInvalid, attributesInvalid, parameterInvalid } from '../errors';
import type { BodyOf, RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import { parseWrittenValue, writeFormOf, type WriteForm } from '../property-values';
import type { EmulatorState, OptionRecord, PropertyRecord, PropertyValueRecord } from '../records';
import { propertyValueJson } from '../serializers';
import { byId } from '../store';
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
    // One pass over the values, then a lookup per property: a find per property scanned every value of every
    // fund once per property (5 million comparisons a page for 500 × 100), most of a large audit's test time.
    const ofProfile = new Map<string, PropertyValueRecord>();
    for (const value of store.state.portfolio_property_values) {
      if (value.portfolio_company_profile_id === profile.id && !ofProfile.has(value.portfolio_property_id)) ofProfile.set(value.portfolio_property_id, value);
    }
    const values = properties.flatMap((property) => {
      const record = ofProfile.get(property.id);
      return record ? [propertyValueJson(record, property, optionsOf(store.state, property.id))] : [];
    });
    const { items, meta } = paginate(values, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { portfolio_property_values: items, meta } };
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
