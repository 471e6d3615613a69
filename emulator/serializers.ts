// Stored records to the response shapes of the contract: one function per schema.

import type { components } from '../src/core/api/schema.gen';
import { formatValue, orderedSelection } from './property-values';
import type {
  ContactListRecord,
  ContactRecord,
  DataPointRecord,
  MetricRecord,
  NoteRecord,
  NoteTagRecord,
  OptionRecord,
  PortfolioNoteRecord,
  ProfileRecord,
  PropertyRecord,
  PropertyValueRecord,
} from './records';

type Schemas = components['schemas'];

/** Metric; created_at only on the creation response, as the document says. */
export function metricJson(metric: MetricRecord, withCreatedAt: boolean): Schemas['Metric'] {
  const json: Schemas['Metric'] = {
    id: metric.id,
    name: metric.name,
    frequency: metric.frequency,
    unit: metric.unit,
    portfolio_company_profile_id: metric.portfolio_company_profile_id,
    company_id: metric.company_id,
  };
  if (withCreatedAt) json.created_at = metric.created_at;
  return json;
}

/** DataPoint; `source` only when asked for (list with include_source=true, and the upsert). */
export function dataPointJson(point: DataPointRecord, withSource: boolean): Schemas['DataPoint'] {
  const json: Schemas['DataPoint'] = { id: point.id, date: point.date, value: point.value, metric_id: point.metric_id };
  if (withSource) {
    json.source = { source_type: point.source.source_type, label: point.source.label };
    if (point.source.app_url !== null) json.source.app_url = point.source.app_url;
  }
  return json;
}

export function contactJson(contact: ContactRecord): Schemas['Contact'] {
  return {
    id: contact.id,
    email: contact.email,
    company_id: contact.company_id,
    first_name: contact.first_name,
    last_name: contact.last_name,
    title: contact.title,
    contact_list_ids: [...contact.contact_list_ids],
  };
}

export function contactListJson(list: ContactListRecord): Schemas['ContactList'] {
  return { id: list.id, name: list.name, company_id: list.company_id };
}

/** Note as the creation response shows it: content null, as the live service answers. */
export function createdNoteJson(note: NoteRecord): Schemas['Note'] {
  return {
    id: note.id,
    contact_ids: [...note.contact_ids],
    note_tag_id: note.note_tag_id,
    content: null,
    created_at: note.created_at,
  };
}

export function noteTagJson(tag: NoteTagRecord): Schemas['NoteTag'] {
  return { id: tag.id, name: tag.name, company_id: tag.company_id };
}

export function profileJson(profile: ProfileRecord): Schemas['PortfolioCompanyProfile'] {
  return {
    id: profile.id,
    name: profile.name,
    website_url: profile.website_url,
    currency: profile.currency,
    created_at: profile.created_at,
    company_id: profile.company_id,
    primary_contact_id: profile.primary_contact_id,
    fiscal_year_end_month: profile.fiscal_year_end_month,
  };
}

/** PortfolioNote with `content`; `plaintext_content` left out (the changelog removed it). */
export function portfolioNoteJson(note: PortfolioNoteRecord): Schemas['PortfolioNote'] {
  return {
    id: note.id,
    name: note.name,
    portfolio_company_profile_id: note.portfolio_company_profile_id,
    content: note.content,
    created_at: note.created_at,
  };
}

export function propertyJson(property: PropertyRecord): Schemas['PortfolioProperty'] {
  return { id: property.id, name: property.name, data_type: property.data_type, company_id: property.company_id };
}

/** PortfolioPropertyValue formatted by the property's data_type (see property-values.ts). */
export function propertyValueJson(record: PropertyValueRecord, property: PropertyRecord, options: OptionRecord[]): Schemas['PortfolioPropertyValue'] {
  const selected = orderedSelection(record.option_ids, options).map((option) => option.id);
  return {
    id: record.id,
    value: formatValue(property, record, options),
    portfolio_property_id: record.portfolio_property_id,
    portfolio_company_profile_id: record.portfolio_company_profile_id,
    portfolio_property_option_id: property.data_type === 'select' ? (selected[0] ?? null) : null,
    portfolio_property_option_ids: selected,
  };
}

export function optionJson(option: OptionRecord): Schemas['PortfolioPropertyOption'] {
  return { id: option.id, label: option.label, portfolio_property_id: option.portfolio_property_id };
}
