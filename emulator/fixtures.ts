// Test fixtures: records a test adds through the control API, with defaults for what it does not care about.

import { randomUUID } from 'node:crypto';
import type {
  CompanyRecord,
  ContactListRecord,
  ContactRecord,
  DataPointRecord,
  EmulatorState,
  MetricRecord,
  NoteRecord,
  NoteTagRecord,
  OptionRecord,
  PortfolioNoteRecord,
  ProfileRecord,
  PropertyRecord,
  PropertyValueRecord,
  UserRecord,
} from './records';
import { emptyState } from './records';

/** A fixture record that cannot be added, with the reason. */
export class FixtureError extends Error {}

/** Loose JSON for one fixture record; missing fields take defaults. */
type Loose = Record<string, unknown>;

/** The body of `POST /__emulator/fixtures`: any of these collections, applied in this order. */
export interface FixtureInput {
  companies?: Loose[];
  users?: Loose[];
  contact_lists?: Loose[];
  contacts?: Loose[];
  note_tags?: Loose[];
  notes?: Loose[];
  portfolio_company_profiles?: Loose[];
  metrics?: Loose[];
  data_points?: Loose[];
  portfolio_notes?: Loose[];
  portfolio_properties?: Loose[];
  portfolio_property_options?: Loose[];
  portfolio_property_values?: Loose[];
}

/** What was added, record by record, with every id. */
export type FixtureResult = { [K in keyof EmulatorState]: EmulatorState[K] };

/**
 * Adds fixture records to the state (a record with an existing id replaces it).
 * New companies are reachable by `defaultToken`'s user unless the company lists `access_tokens`.
 */
export function applyFixtures(state: EmulatorState, input: unknown, defaultToken: string, now: string): FixtureResult {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new FixtureError('body must be a JSON object');
  const body = input as Record<string, unknown>;
  const known = new Set<string>(ORDER);
  const unknownKey = Object.keys(body).find((key) => !known.has(key));
  if (unknownKey) throw new FixtureError(`unknown collection: ${unknownKey}`);
  const result: FixtureResult = emptyState();
  const context: BuildContext = { state, defaultToken, now };
  indexes = new Map();
  try {
    for (const key of ORDER) {
      const items = body[key];
      if (items === undefined) continue;
      if (!Array.isArray(items)) throw new FixtureError(`${key} must be an array`);
      items.forEach((item: unknown, index) => {
        if (!item || typeof item !== 'object') throw new FixtureError(`${key}[${index}] must be an object`);
        BUILDERS[key](item as Loose, context, result, `${key}[${index}]`);
      });
    }
  } finally {
    indexes = null;
  }
  return result;
}

const ORDER = [
  'companies',
  'users',
  'contact_lists',
  'contacts',
  'note_tags',
  'notes',
  'portfolio_company_profiles',
  'metrics',
  'data_points',
  'portfolio_notes',
  'portfolio_properties',
  'portfolio_property_options',
  'portfolio_property_values',
] as const;

interface BuildContext {
  state: EmulatorState;
  defaultToken: string;
  now: string;
}

type Builder = (item: Loose, context: BuildContext, result: FixtureResult, where: string) => void;

function text(item: Loose, key: string, where: string, fallback?: string): string {
  const value = item[key];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string') throw new FixtureError(`${where}.${key} must be a string`);
  return value;
}

function nullableText(item: Loose, key: string, where: string): string | null {
  const value = item[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new FixtureError(`${where}.${key} must be a string or null`);
  return value;
}

function textList(item: Loose, key: string, where: string): string[] {
  const value = item[key] ?? [];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new FixtureError(`${where}.${key} must be an array of strings`);
  }
  return value as string[];
}

// Positions by key in the collections, kept only while one applyFixtures call runs (nothing else changes
// the state then): seeding tens of thousands of records was quadratic with a scan per lookup.
type Positions = Map<string, number>;
// biome-ignore lint/suspicious/noExplicitAny: one map per key function, over records of any collection
type KeyOf = (record: any) => string;
let indexes: Map<unknown[], Map<KeyOf, Positions>> | null = null;

function positionsOf<T>(records: T[], keyOf: (record: T) => string): Positions {
  const build = (): Positions => new Map(records.map((record, index) => [keyOf(record), index]));
  if (!indexes) return build();
  let byKey = indexes.get(records);
  if (!byKey) indexes.set(records, (byKey = new Map()));
  let positions = byKey.get(keyOf);
  if (!positions) byKey.set(keyOf, (positions = build()));
  return positions;
}

function append<T>(records: T[], record: T): void {
  records.push(record);
  for (const [keyOf, positions] of indexes?.get(records) ?? []) positions.set(keyOf(record), records.length - 1);
}

const idOf = (record: { id: string }): string => record.id;
const pointKey = (point: DataPointRecord): string => `${point.metric_id}|${point.date}`;
const valueKey = (value: PropertyValueRecord): string => `${value.portfolio_property_id}|${value.portfolio_company_profile_id}`;

function reference<T extends { id: string }>(records: T[], id: string, where: string, what: string): T {
  const index = positionsOf(records, idOf).get(id);
  const record = index === undefined ? undefined : records[index];
  if (!record) throw new FixtureError(`${where}: no ${what} ${id}`);
  return record;
}

/** Adds or replaces by id. */
function put<T extends { id: string }>(records: T[], record: T, added: T[]): void {
  const index = positionsOf(records, idOf).get(record.id);
  if (index === undefined) append(records, record);
  else {
    records[index] = record;
    indexes?.delete(records); // its other keys may differ: rebuilt on next use (rare in bulk seeding)
  }
  added.push(record);
}

/** Removes the record kept under `key`, so its replacement goes last as before; returns it. */
function takeOut<T>(records: T[], keyOf: (record: T) => string, key: string): T | undefined {
  const index = positionsOf(records, keyOf).get(key);
  if (index === undefined) return undefined;
  indexes?.delete(records); // later positions moved
  return records.splice(index, 1)[0];
}

const BUILDERS: Record<(typeof ORDER)[number], Builder> = {
  companies(item, { state, defaultToken }, result, where) {
    const kind = text(item, 'kind', where, 'investor');
    if (kind !== 'investor' && kind !== 'startup') throw new FixtureError(`${where}.kind must be investor or startup`);
    const company: CompanyRecord = { id: text(item, 'id', where, randomUUID()), name: text(item, 'name', where, 'Fixture company'), kind };
    put(state.companies, company, result.companies);
    const tokens = item.access_tokens === undefined ? [defaultToken] : textList(item, 'access_tokens', where);
    for (const token of tokens) {
      const user = state.users.find((candidate) => candidate.tokens.includes(token));
      if (!user) throw new FixtureError(`${where}.access_tokens: no user holds token ${token}`);
      if (!user.company_ids.includes(company.id)) user.company_ids.push(company.id);
    }
  },
  users(item, { state }, result, where) {
    const tokens = item.token !== undefined ? [text(item, 'token', where)] : textList(item, 'tokens', where);
    const companyIds = textList(item, 'company_ids', where);
    companyIds.forEach((id) => reference(state.companies, id, where, 'company'));
    const user: UserRecord = { id: text(item, 'id', where, randomUUID()), name: text(item, 'name', where, 'Fixture user'), tokens, company_ids: companyIds };
    put(state.users, user, result.users);
  },
  contact_lists(item, { state }, result, where) {
    const list: ContactListRecord = {
      id: text(item, 'id', where, randomUUID()),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      name: text(item, 'name', where, 'Fixture list'),
    };
    put(state.contact_lists, list, result.contact_lists);
  },
  contacts(item, { state }, result, where) {
    const id = text(item, 'id', where, randomUUID());
    const contact: ContactRecord = {
      id,
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      email: text(item, 'email', where, `contact-${id.slice(0, 8)}@example.com`),
      first_name: nullableText(item, 'first_name', where),
      last_name: nullableText(item, 'last_name', where),
      title: nullableText(item, 'title', where),
      contact_list_ids: textList(item, 'contact_list_ids', where).map((listId) => reference(state.contact_lists, listId, where, 'contact list').id),
    };
    put(state.contacts, contact, result.contacts);
  },
  note_tags(item, { state }, result, where) {
    const tag: NoteTagRecord = {
      id: text(item, 'id', where, randomUUID()),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      name: text(item, 'name', where, 'Fixture tag'),
    };
    put(state.note_tags, tag, result.note_tags);
  },
  notes(item, { state, now }, result, where) {
    const note: NoteRecord = {
      id: text(item, 'id', where, randomUUID()),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      contact_ids: textList(item, 'contact_ids', where).map((id) => reference(state.contacts, id, where, 'contact').id),
      note_tag_id: nullableText(item, 'note_tag_id', where),
      content: text(item, 'content', where, ''),
      created_at: text(item, 'created_at', where, now),
    };
    put(state.notes, note, result.notes);
  },
  portfolio_company_profiles(item, { state, now }, result, where) {
    const month = item.fiscal_year_end_month;
    if (month !== undefined && month !== null && (typeof month !== 'number' || month < 1 || month > 12)) {
      throw new FixtureError(`${where}.fiscal_year_end_month must be 1..12 or null`);
    }
    const profile: ProfileRecord = {
      id: text(item, 'id', where, randomUUID()),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      name: text(item, 'name', where, `Fixture profile ${state.portfolio_company_profiles.length + 1}`),
      website_url: nullableText(item, 'website_url', where),
      currency: nullableText(item, 'currency', where),
      primary_contact_id: nullableText(item, 'primary_contact_id', where),
      fiscal_year_end_month: typeof month === 'number' ? month : null,
      created_at: text(item, 'created_at', where, now),
    };
    put(state.portfolio_company_profiles, profile, result.portfolio_company_profiles);
  },
  metrics(item, { state, now }, result, where) {
    const profileId = nullableText(item, 'portfolio_company_profile_id', where);
    if (profileId !== null) reference(state.portfolio_company_profiles, profileId, where, 'portfolio company profile');
    const metric: MetricRecord = {
      id: text(item, 'id', where, randomUUID()),
      name: text(item, 'name', where, 'Fixture metric'),
      frequency: text(item, 'frequency', where, 'monthly'),
      unit: text(item, 'unit', where, 'number'),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      portfolio_company_profile_id: profileId,
      created_at: text(item, 'created_at', where, now),
    };
    put(state.metrics, metric, result.metrics);
  },
  data_points(item, { state }, result, where) {
    const metric = reference(state.metrics, text(item, 'metric_id', where), where, 'metric');
    const date = text(item, 'date', where);
    const raw = item.value;
    if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
      throw new FixtureError(`${where}.value must be a string, a number or null`);
    }
    const existing = takeOut(state.data_points, pointKey, `${metric.id}|${date}`);
    const source = (item.source ?? {}) as Loose;
    const point: DataPointRecord = {
      id: text(item, 'id', where, existing?.id ?? randomUUID()),
      metric_id: metric.id,
      date,
      value: raw === undefined || raw === null ? null : String(raw),
      source: {
        source_type: text(source, 'source_type', `${where}.source`, 'user_provided'),
        label: text(source, 'label', `${where}.source`, 'Provided via fixtures'),
        app_url: nullableText(source, 'app_url', `${where}.source`),
      },
    };
    put(state.data_points, point, result.data_points);
  },
  portfolio_notes(item, { state, now }, result, where) {
    const note: PortfolioNoteRecord = {
      id: text(item, 'id', where, randomUUID()),
      portfolio_company_profile_id: reference(
        state.portfolio_company_profiles,
        text(item, 'portfolio_company_profile_id', where),
        where,
        'portfolio company profile',
      ).id,
      name: text(item, 'name', where, 'Fixture note'),
      content: item.content === undefined ? 'Fixture content' : nullableText(item, 'content', where),
      created_at: text(item, 'created_at', where, now),
    };
    put(state.portfolio_notes, note, result.portfolio_notes);
  },
  portfolio_properties(item, { state }, result, where) {
    const property: PropertyRecord = {
      id: text(item, 'id', where, randomUUID()),
      company_id: reference(state.companies, text(item, 'company_id', where), where, 'company').id,
      name: text(item, 'name', where, 'Fixture property'),
      data_type: text(item, 'data_type', where, 'string'),
      auto_calculated: item.auto_calculated === true,
    };
    put(state.portfolio_properties, property, result.portfolio_properties);
  },
  portfolio_property_options(item, { state }, result, where) {
    const option: OptionRecord = {
      id: text(item, 'id', where, randomUUID()),
      portfolio_property_id: reference(state.portfolio_properties, text(item, 'portfolio_property_id', where), where, 'portfolio property').id,
      label: text(item, 'label', where),
    };
    put(state.portfolio_property_options, option, result.portfolio_property_options);
  },
  portfolio_property_values(item, { state }, result, where) {
    const property = reference(state.portfolio_properties, text(item, 'portfolio_property_id', where), where, 'portfolio property');
    const profile = reference(state.portfolio_company_profiles, text(item, 'portfolio_company_profile_id', where), where, 'portfolio company profile');
    const single = nullableText(item, 'portfolio_property_option_id', where);
    const optionIds = single !== null ? [single] : textList(item, 'portfolio_property_option_ids', where);
    optionIds.forEach((id) => reference(state.portfolio_property_options, id, where, 'option'));
    const raw = item.value;
    const existing = takeOut(state.portfolio_property_values, valueKey, `${property.id}|${profile.id}`);
    const record: PropertyValueRecord = {
      id: text(item, 'id', where, existing?.id ?? randomUUID()),
      portfolio_property_id: property.id,
      portfolio_company_profile_id: profile.id,
      value: raw === undefined || raw === null ? null : String(raw),
      option_ids: optionIds,
    };
    put(state.portfolio_property_values, record, result.portfolio_property_values);
  },
};
