// The API's records, named once: every type here comes from contract/openapi.yaml through schema.gen.ts.

import type { components } from './schema.gen';

type Schemas = components['schemas'];

export type Metric = Schemas['Metric'];
export type MetricInput = Schemas['MetricInput'];
export type DataPoint = Schemas['DataPoint'];
export type DataPointInput = Schemas['DataPointInput'];
export type Contact = Schemas['Contact'];
export type ContactInput = Schemas['ContactInput'];
export type ContactList = Schemas['ContactList'];
export type Note = Schemas['Note'];
export type NoteInput = Schemas['NoteInput'];
export type NoteTag = Schemas['NoteTag'];
export type PortfolioCompanyProfile = Schemas['PortfolioCompanyProfile'];
export type PortfolioCompanyProfileInput = Schemas['PortfolioCompanyProfileInput'];
export type PortfolioNote = Schemas['PortfolioNote'];
export type PortfolioProperty = Schemas['PortfolioProperty'];
export type PortfolioPropertyValue = Schemas['PortfolioPropertyValue'];
export type PortfolioPropertyValueInput = Schemas['PortfolioPropertyValueInput'];
export type PortfolioPropertyOption = Schemas['PortfolioPropertyOption'];
export type PaginationMeta = Schemas['PaginationMeta'];

/** The upsert accepts at most this many data points per request. */
export const MAX_UPSERT_ITEMS = 50;
