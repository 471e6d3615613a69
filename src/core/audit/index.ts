// The portfolio audit's public surface, for the server and the sidebar's types.

export { loadAuditData, loadAuditSchema } from './load-audit-data';
export { buildAuditModel, BLANK_BACKGROUND, type AuditBuildOptions } from './build-audit';
export { AUDIT_MARKER_PREFIX, cellName } from './layout';
export { readAuditSheet } from './read-sheet';
export { CELL_MAX_CHARACTERS, fitCell, isCutText, LIST_RULE_MAX_ITEMS } from './sheet-limits';
export { applySnapshotUpdates, parseSnapshot, serializeSnapshot } from './snapshot';
export {
  cancelAuditPush,
  isPushComplete,
  prepareAuditPush,
  resumeAuditPush,
  AUTO_CALCULATED_REASON,
  CUT_VALUE_REASON,
  NOT_IN_AUDIT_REASON,
  type AuditPushInput,
} from './write-back';
export {
  auditPushProgress,
  runAuditPushStep,
  type AuditPushStepOptions,
  type AuditPushStepResult,
} from './run-push-step';
export { buildAuditPushReport } from './push-report';
export { compactNewPush, compactPush, expandPush, sheetFingerprint, PUSH_CODES, type CompactPushState } from './compact-push';
export type {
  AuditCell,
  AuditCellOutcome,
  AuditColumnSummary,
  AuditData,
  AuditFormatting,
  AuditLayout,
  AuditOption,
  AuditProfile,
  AuditProperty,
  AuditPushProgress,
  AuditPushReport,
  AuditPushReportItem,
  AuditPushState,
  AuditPushStatus,
  AuditPushTotals,
  AuditRowSummary,
  AuditSchema,
  AuditSheetCell,
  AuditSheetModel,
  AuditSheetRead,
  AuditSnapshot,
  AuditSnapshotUpdate,
  AuditSummary,
  AuditValidation,
  AuditWrite,
  Completeness,
  GridRange,
} from './types';
