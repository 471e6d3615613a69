// The surface between the sidebar and the server: names and JSON-safe types, shared by both sides.

/**
 * What crosses google.script.run: Dates and class instances do not survive it, so the types refuse them.
 * RPC records are type aliases, not interfaces, so that they can be checked against this.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

export type SettingsSummary = {
  tokenSet: boolean;
  /** Last four characters of the token, when it is long enough to spare them; never the token. */
  tokenLast4: string | null;
  baseUrl: string | null;
  defaultCompanyId: string | null;
};

export type SettingsUpdate = {
  /** A new token; absent leaves it unchanged. */
  token?: string;
  removeToken?: boolean;
  baseUrl?: string;
  defaultCompanyId?: string | null;
};

export type ConnectionReport = {
  ok: boolean;
  /** One sentence: what the token can see, or the exact problem and what to do. */
  message: string;
  metricCount?: number;
};

export type MetricSummary = {
  id: string;
  name: string;
  /** As the API sends it: daily, weekly, monthly, quarterly, or a newer value shown as it is. */
  frequency: string;
  unit: string;
  portfolioCompanyProfileId: string | null;
};

export type NewMetric = {
  companyId: string;
  name: string;
  frequency: 'daily' | 'weekly' | 'monthly' | 'quarterly';
  unit: string;
};

export type InsertRequest = {
  /** The company the metrics belong to, for their names in the header row. */
  companyId: string;
  metricIds: string[];
  /** YYYY-MM-DD or null for no bound. */
  startDate: string | null;
  endDate: string | null;
  /** A live METRIC_VALUES formula, or the values as they are now. */
  mode: 'formula' | 'snapshot';
  headers: boolean;
};

export type InsertReport = {
  /** Where it was written, like Sheet1!B2:D40. */
  range: string;
  rows: number;
  message: string;
};

/** Failures come back as data the page renders, not as exceptions that lose everything but a message. */
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Every function the sidebar may call, with its parameters and result. */
export interface ServerApi {
  getSettings(): RpcResult<SettingsSummary>;
  saveSettings(update: SettingsUpdate): RpcResult<SettingsSummary>;
  testConnection(companyId: string): RpcResult<ConnectionReport>;
  listMetrics(companyId: string): RpcResult<MetricSummary[]>;
  createMetric(input: NewMetric): RpcResult<MetricSummary>;
  insertMetricValues(request: InsertRequest): RpcResult<InsertReport>;
}

/** Compile-time guard: every parameter and result of ServerApi is JSON-safe. */
type JsonSafe<T> = T extends Json ? true : false;
type AllJsonSafe = {
  [K in keyof ServerApi]: JsonSafe<ReturnType<ServerApi[K]>> extends true
    ? Parameters<ServerApi[K]> extends Json[] ? true : false
    : false;
}[keyof ServerApi];
export const RPC_TYPES_ARE_JSON_SAFE: AllJsonSafe = true;
