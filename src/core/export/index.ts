// The range exporter's public surface, for the server and the sidebar's types.

export { parseExportSpec } from './spec';
export { cancelExport, isComplete, prepareExport, resumeExport, sameExport, type ExportInput } from './export-state';
export { exportProgress, readStoredPoints, runExportStep, type ExportStepOptions } from './run-step';
export { buildReport, STATUS_HEADER } from './report';
export { previewExport } from './preview';
export { WaitLog } from './wait-log';
export { guessLayout, type LayoutGuess } from './guess-layout';
export type {
  ExportLayout,
  ExportPreview,
  ExportProgress,
  ExportReport,
  ExportReportItem,
  ExportSpec,
  ExportState,
  ExportStatus,
  ExportTotals,
  MetricRef,
  RangeInput,
  RowOutcome,
} from './types';
