// METRICS, CONTACT_LISTS and the portfolio lists: every page, a header row, values as a person reads them.

import { ApiError, InputError } from '../errors';
import type { PortfolioPropertyValue } from '../api/types';
import { isAutoCalculated } from '../portfolio/auto-calculated';
import { midnightIn } from '../sheets/time-zone';
import { isIsoDate, type DateFormatter } from '../validate/dates';
import { companyOrDefault, isBlank, optionalText, readId } from './arguments';
import type { FormulaContext } from './formula-context';
import { requireCompanyAccess, requirePropertyAccess } from './formula-access';
import { portfolioCompanyArg } from './fund-functions';
import { listMetricsCached, listProfilesCached, listPropertiesCached, unlessForbidden } from './metric-directory';
import { richTextToPlain } from './rich-text';
import type { SheetCell } from './metric-formulas';

/** An API date-time as a Date cell; unparseable text is shown as it came. */
function dateTime(value: string | null | undefined): SheetCell {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time);
}

/** An empty list keeps its header (formulas that refer to it still find it) and says why below, not like a failed read. */
function listTable(header: SheetCell[], rows: SheetCell[][], whyEmpty: () => string): SheetCell[][] {
  if (rows.length > 0) return [header, ...rows];
  return [header, [whyEmpty(), ...header.slice(1).map(() => '')]];
}

export function metrics(ctx: FormulaContext, companyArg: unknown, profileArg: unknown): SheetCell[][] {
  const companyId = readId(companyArg, 'The company id');
  const profileId = isBlank(profileArg) ? undefined : readId(profileArg, 'The portfolio company profile id');
  // The API refuses a profile filter that is not one of this company's profiles: the company is the whole check.
  requireCompanyAccess(ctx, companyId);
  const rows = listMetricsCached(ctx, companyId, profileId).map((m) => [m.name, m.id, m.frequency, m.unit, m.portfolio_company_profile_id ?? '']);
  return listTable(['Name', 'Id', 'Frequency', 'Unit', 'Portfolio company profile id'], rows, () =>
    profileId ? 'No metrics: this portfolio company has none in this fund.' : 'No metrics: this company has none yet.',
  );
}

/** The company id argument, once formulas here may read that company's data. */
function allowedCompany(ctx: FormulaContext, companyArg: unknown): string {
  const companyId = readId(companyArg, 'The company id');
  requireCompanyAccess(ctx, companyId);
  return companyId;
}

export function contactLists(ctx: FormulaContext, companyArg: unknown): SheetCell[][] {
  const companyId = allowedCompany(ctx, companyArg);
  const lists = ctx.records.getOrLoad(`contact_lists:${companyId}`, () => ctx.client().contacts.listLists(companyId));
  return listTable(
    ['Name', 'Id'],
    lists.map((l) => [l.name, l.id]),
    () => 'No contact lists: this company has none yet.',
  );
}

export function portfolioCompanies(ctx: FormulaContext, companyArg: unknown): SheetCell[][] {
  const rows = listProfilesCached(ctx, allowedCompany(ctx, companyArg)).map((p) => [
    p.name,
    p.id,
    p.website_url ?? '',
    p.currency ?? '',
    p.fiscal_year_end_month ?? '',
    p.primary_contact_id ?? '',
    dateTime(p.created_at),
  ]);
  return listTable(
    ['Name', 'Id', 'Website', 'Currency', 'Fiscal year end month', 'Primary contact id', 'Created at'],
    rows,
    () => 'No portfolio companies: this fund has none yet.',
  );
}

export function portfolioProperties(ctx: FormulaContext, companyArg: unknown): SheetCell[][] {
  const rows = listPropertiesCached(ctx, allowedCompany(ctx, companyArg)).map((p) => [p.name, p.id, p.data_type, isAutoCalculated(p.name)]);
  return listTable(['Name', 'Id', 'Data type', 'Auto-calculated'], rows, () => 'No portfolio properties: this fund has none.');
}

/** A property value as a person reads it: option labels, lists joined, numbers, dates and booleans as such, rich text as plain text. */
export function readableValue(value: PortfolioPropertyValue['value'], dataType: string | undefined, timeZone: string, formatDate?: DateFormatter): SheetCell {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'number') return value;
  if (dataType === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (dataType === 'date' && isIsoDate(value)) return midnightIn(value, timeZone, formatDate);
  if (dataType === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (dataType === 'rich_text') return richTextToPlain(value);
  return value;
}

export function portfolioPropertyValues(ctx: FormulaContext, profileArg: unknown, companyArg: unknown): SheetCell[][] {
  const companyId = companyOrDefault(ctx, companyArg, "The fund's company id");
  const profileId = portfolioCompanyArg(ctx, profileArg, companyId).id;
  const properties = new Map(listPropertiesCached(ctx, companyId).map((p) => [p.id, p]));
  const values = ctx.records.getOrLoad(`property_values:${profileId}`, () => ctx.client().portfolio.listValues(profileId));
  const rows = values.map((v) => {
    const property = properties.get(v.portfolio_property_id);
    return [
      property?.name ?? v.portfolio_property_id,
      readableValue(v.value, property?.data_type, ctx.timeZone, ctx.formatDate),
      property?.data_type ?? '',
      v.portfolio_property_id,
    ];
  });
  return listTable(['Property', 'Value', 'Data type', 'Property id'], rows, () => 'No property values: none is set for this portfolio company yet.');
}

export function portfolioPropertyOptions(ctx: FormulaContext, propertyArg: unknown, labelArg: unknown): SheetCell[][] {
  const propertyId = readId(propertyArg, 'The portfolio property id');
  const label = optionalText(labelArg, 'The label');
  requirePropertyAccess(ctx, propertyId);
  const options = ctx.records.getOrLoad(`options:${propertyId}:${label ?? ''}`, () => ctx.client().portfolio.listOptions(propertyId, label));
  return listTable(
    ['Label', 'Id'],
    options.map((o) => [o.label, o.id]),
    () => whyNoOptions(ctx, propertyId, label),
  );
}

const OPTION_TYPES = ['select', 'multiselect'];

/**
 * Why a property lists no options. Its name and data type come from the default company's property list
 * (the options endpoint knows only its id), read only on this empty path.
 */
function whyNoOptions(ctx: FormulaContext, propertyId: string, label: string | undefined): string {
  const fundId = ctx.defaultCompanyId;
  // A default company that is not a fund has no properties to name: the general sentence says it.
  const property = fundId ? unlessForbidden(() => listPropertiesCached(ctx, fundId).find((p) => p.id === propertyId)) : undefined;
  if (property && !OPTION_TYPES.includes(property.data_type)) {
    return `No options: "${property.name}" is a ${property.data_type} property, and only select and multiselect properties have options.`;
  }
  if (label !== undefined) return `No options: ${property ? `"${property.name}" has` : 'the property has'} no option labelled "${label}".`;
  if (property) return `No options: "${property.name}" is a ${property.data_type} property with no options yet.`;
  return "No options: only select and multiselect properties have options, and this property has none (choose its fund as the default company in the add-in's settings to see its name and data type).";
}

export function portfolioNotes(ctx: FormulaContext, profileArg: unknown): SheetCell[][] {
  const profileId = portfolioCompanyArg(ctx, profileArg, undefined).id;
  const notes = ctx.records.getOrLoad(`portfolio_notes:${profileId}`, () => ctx.client().portfolio.listNotes(profileId));
  return listTable(
    ['Name', 'Content', 'Created at', 'Id'],
    notes.map((n) => [n.name ?? '', n.content ?? '', dateTime(n.created_at), String(n.id ?? '')]),
    () => 'No portfolio notes: this portfolio company has none yet.',
  );
}

/** 403 on a portfolio list usually means a startup company: say so rather than "no access". */
export function explainPortfolioForbidden(error: unknown): unknown {
  if (error instanceof ApiError && error.code === 'forbidden' && error.about.startsWith('portfolio_')) {
    return new InputError(
      "This token cannot read that fund's portfolio: portfolio data exists only for investor (fund) companies the token can access. Check the company id.",
    );
  }
  return error;
}
