// The emulator's stored records: what the service keeps, which is more than any one response shows.

/** A company or fund; portfolio endpoints belong to `investor` companies only. */
export interface CompanyRecord {
  id: string;
  name: string;
  kind: 'investor' | 'startup';
}

/** A user of the service: its tokens reach the same companies as the user. */
export interface UserRecord {
  id: string;
  name: string;
  tokens: string[];
  company_ids: string[];
}

export interface MetricRecord {
  id: string;
  name: string;
  /** Open on purpose: live accounts hold frequencies the document does not list (e.g. annually). */
  frequency: string;
  unit: string;
  company_id: string;
  portfolio_company_profile_id: string | null;
  created_at: string;
}

export interface DataPointSourceRecord {
  source_type: string;
  label: string;
  app_url: string | null;
}

export interface DataPointRecord {
  id: string;
  metric_id: string;
  date: string;
  /** Decimal text, or null for a blank point. */
  value: string | null;
  source: DataPointSourceRecord;
}

export interface ContactRecord {
  id: string;
  company_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  contact_list_ids: string[];
}

export interface ContactListRecord {
  id: string;
  company_id: string;
  name: string;
}

export interface NoteTagRecord {
  id: string;
  company_id: string;
  name: string;
}

/** A note on contacts; its content is kept here even though the creation response shows null. */
export interface NoteRecord {
  id: string;
  company_id: string;
  contact_ids: string[];
  note_tag_id: string | null;
  content: string;
  created_at: string;
}

export interface ProfileRecord {
  id: string;
  company_id: string;
  name: string;
  website_url: string | null;
  currency: string | null;
  primary_contact_id: string | null;
  fiscal_year_end_month: number | null;
  created_at: string;
}

export interface PortfolioNoteRecord {
  id: string;
  portfolio_company_profile_id: string;
  name: string;
  content: string | null;
  created_at: string;
}

export interface PropertyRecord {
  id: string;
  company_id: string;
  name: string;
  data_type: string;
  /** Investment properties the service computes; listed like others, never writable. */
  auto_calculated: boolean;
}

export interface OptionRecord {
  id: string;
  portfolio_property_id: string;
  label: string;
}

/** One value of one property for one profile; `value` is the canonical text, options are ids. */
export interface PropertyValueRecord {
  id: string;
  portfolio_property_id: string;
  portfolio_company_profile_id: string;
  value: string | null;
  option_ids: string[];
}

/** Everything the emulator holds; also the JSON of `GET /__emulator/state` and of `--data FILE`. */
export interface EmulatorState {
  companies: CompanyRecord[];
  users: UserRecord[];
  metrics: MetricRecord[];
  data_points: DataPointRecord[];
  contacts: ContactRecord[];
  contact_lists: ContactListRecord[];
  note_tags: NoteTagRecord[];
  notes: NoteRecord[];
  portfolio_company_profiles: ProfileRecord[];
  portfolio_notes: PortfolioNoteRecord[];
  portfolio_properties: PropertyRecord[];
  portfolio_property_options: OptionRecord[];
  portfolio_property_values: PropertyValueRecord[];
}

/** A state with no records at all. */
export function emptyState(): EmulatorState {
  return {
    companies: [],
    users: [],
    metrics: [],
    data_points: [],
    contacts: [],
    contact_lists: [],
    note_tags: [],
    notes: [],
    portfolio_company_profiles: [],
    portfolio_notes: [],
    portfolio_properties: [],
    portfolio_property_options: [],
    portfolio_property_values: [],
  };
}
