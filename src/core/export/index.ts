// The range exporter's public surface, for the server and the sidebar's types.

export { parseExportSpec } from './spec';
export { isComplete, prepareExport, resumeExport } from './export-state';
export { exportProgress, readStoredPoints, runExportStep } from './run-step';
export { buildReport, metricLabel, STATUS_HEADER } from './report';
export { previewExport } from './preview';
export { compareItem } from './diff';
export { guessLayout } from './guess-layout';
export { exportUndoOutcome, exportUndoReport, prepareExportUndo, type ExportedPoint } from './undo';
export type {
  ExportLayout,
  ExportPreview,
  ExportProgress,
  ExportReport,
  ExportReportItem,
  ExportSpec,
  ExportState,
  MetricRef,
  RowOutcome,
} from './types';
