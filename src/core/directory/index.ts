// The directory's public surface (profiles, contacts, notes), for the server and the sidebar's types.

export {
  buildProfilesImportReport,
  prepareProfilesImport,
  runProfilesImportStep,
  PROFILE_ID_HEADER,
  PROFILE_ROW_OUTCOMES,
  type ProfileFieldName,
  type ProfileRowOutcome,
  type ProfileRowState,
  type ProfilesImportInput,
  type ProfilesImportReport,
  type ProfilesImportState,
  type ProfilesImportStepOptions,
} from './profiles-import';
export {
  buildContactsImportReport,
  prepareContactsImport,
  runContactsImportStep,
  CONTACT_ID_HEADER,
  CONTACT_ROW_OUTCOMES,
  MAYBE_CREATED_MARK,
  type ContactRowOutcome,
  type ContactRowState,
  type ContactsImportInput,
  type ContactsImportReport,
  type ContactsImportState,
  type ContactsImportStepOptions,
} from './contacts-import';
export { importProgress, resumeImport, type ImportStepResult } from './row-job';
export { CLEAR_MARK } from './cell-text';
export { STATUS_HEADER } from './range-header';
export {
  findContactHeader,
  findContactIdColumn,
  planContactNote,
  sendContactNote,
  type ContactIdCell,
  type ContactNoteDraft,
  type ContactNoteOutcome,
  type ContactNotePlan,
  type ContactNoteReport,
  type ContactNoteRow,
  type ContactNoteRowOutcome,
} from './contact-notes';
export { portfolioNotesTable, type PortfolioNoteCell } from './portfolio-notes-table';
export type { ColumnTarget, ImportProgress, ImportReport, ImportReportRow, ImportStatus, RowWrite } from './types';
