// The directory's public surface (profiles, contacts, notes), for the server and the sidebar's types.

export {
  buildProfilesImportReport,
  prepareProfilesImport,
  runProfilesImportStep,
  PROFILE_ID_HEADER,
  PROFILE_ROW_OUTCOMES,
  type ProfilesImportState,
} from './profiles-import';
export {
  buildContactsImportReport,
  prepareContactsImport,
  runContactsImportStep,
  CONTACT_ID_HEADER,
  CONTACT_ROW_OUTCOMES,
  type ContactsImportState,
} from './contacts-import';
export { importProgress, resumeImport } from './row-job';
export { STATUS_HEADER } from './range-header';
export { findContactHeader, planContactNote, sendContactNote, type ContactNoteDraft, type ContactNoteReport } from './contact-notes';
export { portfolioNotesTable } from './portfolio-notes-table';
export type { ImportProgress, ImportReport, ImportReportRow, RowWrite } from './types';
