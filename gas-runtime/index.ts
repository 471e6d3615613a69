// gas-runtime: runs a built Apps Script bundle in Node with faithful stand-ins for the services it uses.

export { createGasRuntime, GasRuntime } from './runtime';
export type { EvaluateFormulaOptions, FormulaOutcome, GasRuntimeOptions, RunAuthMode, RunOptions, UserOption } from './runtime';
export type { ConcurrencyOptions, FormulaLocationOption, ExecutionTimes, RecalculatedCell, RecalculationCell } from './runtime';
export type { TriggerControls, TriggerRun } from './runtime';
export type { PlatformAssumptions, SharedDriveOption, SharedDriveReading } from './assumptions';
export { NO_ONES_STORE } from './assumptions';
export type { ClockSchedule, TriggerRecord } from './triggers';
export { TOO_MANY_TRIGGERS } from './triggers';
export { DEFAULT_MAX_CONCURRENT } from './runtime';
export { CustomFunctionError, GasRuntimeUsageError, ScriptError, ServerCallError, EXCEEDED_MAXIMUM_EXECUTION_TIME } from './errors';
export type { CellErrorCode, UsageErrorCode } from './errors';
export type { ExecutionRecord, ExecutionKind } from './execution';
export type { RuntimeClock } from './clock';
export type { LogEntry, LogLevel } from './logging';
export type { CellOutput } from './custom-function-values';
export type { FormulaEvaluator, FormulaLocation, FormulaResult, Spreadsheet } from './spreadsheet/spreadsheet';
export type { Sheet, CellValue } from './spreadsheet/sheet';
export type { Range } from './spreadsheet/range';
export type { UiRecorder, MenuRecord, MenuEntry, HtmlRecord, DialogRecord, AlertRecord, PromptRecord, ToastRecord } from './spreadsheet/ui';
export type { Properties, PropertiesCalls, PropertiesCallsReport } from './properties';
export type { Cache, CacheCalls, CacheCallsReport, CacheEvictionOptions, CacheStats, CacheStatsReport } from './cache';
export type { UrlFetchQuota } from './url-fetch-limits';
export type { DailyQuota } from './daily-quota';
export { PROPERTIES_QUOTA_REFUSAL, PROPERTY_WRITES_QUOTA_REFUSAL } from './properties';
export { TRIGGER_RUNTIME_QUOTA_REFUSAL } from './runtime';
export type { LockTable, LockScope } from './lock';
export { formatDate } from './format-date';
