// The portfolio audit's public surface, for the server and the sidebar's types.

export { loadAuditData, loadAuditSchema } from './load-audit-data';
export { buildAuditModel } from './build-audit';
export { cellName } from './layout';
export { readAuditSheet } from './read-sheet';
export { applySnapshotUpdates, parseSnapshot, serializeSnapshot } from './snapshot';
export { prepareAuditPush, resumeAuditPush } from './write-back';
export { auditPushProgress, runAuditPushStep } from './run-push-step';
export { buildAuditPushReport } from './push-report';
export { compactNewPush, compactPush, expandPush, sheetFingerprint, PUSH_CODES, type CompactPushState } from './compact-push';
export type {
  AuditData,
  AuditPushProgress,
  AuditPushReport,
  AuditPushReportItem,
  AuditPushState,
  AuditSheetModel,
  Completeness,
  GridRange,
} from './types';
