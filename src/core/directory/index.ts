// The directory's public surface (profiles, contacts, notes), for the server and the sidebar's types.

export {
  buildProfilesImportReport,
  checkProfileColumns,
  prepareProfilesImport,
  profileFieldChanges,
  profileRenames,
  requireAcceptedRenames,
  runProfilesImportStep,
  PROFILE_ID_HEADER,
  PROFILE_ROW_OUTCOMES,
  type ProfilesImportState,
} from './profiles-import';
export {
  buildContactsImportReport,
  checkContactColumns,
  prepareContactsImport,
  runContactsImportStep,
  CONTACT_ID_HEADER,
  CONTACT_ROW_OUTCOMES,
  type ContactsImportState,
} from './contacts-import';
export { importProgress, resumeImport } from './import-job';
export { requireKnownHeaders, STATUS_HEADER, type ImportColumnCheck } from './range-header';
export { findContactHeader, planContactNote, sendContactNote, type ContactNoteDraft, type ContactNoteReport } from './contact-notes';
export { portfolioNotesTable } from './portfolio-notes-table';
export type { ImportProgress, ImportReport, ImportReportRow, ProfileRename, RowWrite } from './types';
