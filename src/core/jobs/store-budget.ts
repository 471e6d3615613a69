// The job store's share of the user's properties. Apps Script gives a property store 500 KB in all
// ("Properties total storage 500kB / property store", quotas page), and once it is full *every* write to it
// fails, saving the token or a setting included. So everything the job store keeps (each job's state pieces
// and manifest, its cancel and step marks, the index, the last push kept for Undo) stays together within
// JOB_STORE_BUDGET_BYTES, counted as the store counts: key plus value, in UTF-8 bytes (the stricter reading;
// the quotas page does not say), and at the peak of a write, when a job's old pieces and its new ones are both
// stored (PiecedStore writes the new value before it removes the old). Pure: the store is passed in.
//
// When a write does not fit, room is made by dropping, oldest first: first what no one can resume (finished
// jobs, records kept after one, jobs past the six hours they are offered for), then jobs left running that no
// step is running now; never a paused or cancelled job (kept for Resume) nor one whose step is running. A *new*
// job that still does not fit is refused, naming the kept jobs that hold the room and what to do. A job already
// stored (a checkpoint) or a record is written all the same: refusing it would lose what a step has confirmed,
// and the room left under the 500 KB absorbs it (new jobs are refused meanwhile, so the overshoot is bounded).

import { InputError } from '../errors';
import { countOf, joinAnd } from '../../shared/words';
import { utf8Bytes } from '../cache/chunked-cache';
import { piecedValueIn, type PropertyStore } from './pieced-store';

/**
 * Everything the job store keeps, together: 350 KB of the 500 KB, leaving 150 KB for the settings, the token,
 * the signing key and the formula access lists beside it. One job (JOB_MAX_BYTES, 170 KB) fits its own peak
 * (old and new copies) alone.
 */
export const JOB_STORE_BUDGET_BYTES = 350 * 1024;

/** The durable index of remembered jobs. */
export const JOBS_INDEX_KEY = 'JOBS_INDEX';

export function jobStateKey(kind: string, id: string): string {
  return `job:${kind}:${id}`;
}

export function jobCancelKey(kind: string, id: string): string {
  return `job-cancel:${kind}:${id}`;
}

export function jobStepKey(kind: string, id: string): string {
  return `job-step:${kind}:${id}`;
}

/** One remembered job, as the index keeps it. */
export type JobIndexEntry = { kind: string; id: string; startedAt: number; spreadsheet: string };

/** The index as stored; anything unreadable in it is left out. */
export function parseJobIndex(text: string | null): JobIndexEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (job: Partial<JobIndexEntry> | null): job is JobIndexEntry =>
      typeof job === 'object' &&
      job !== null &&
      typeof job.kind === 'string' &&
      typeof job.id === 'string' &&
      typeof job.spreadsheet === 'string' &&
      typeof job.startedAt === 'number',
  );
}

/**
 * What may happen to a stored job when room is needed, in the order room is taken:
 * - gone: no one can resume it (finished, a record kept after its job, unreadable, or past its six hours);
 * - interrupted: left running (a closed sidebar), no step running now: offered for Resume, but not held for it;
 * - kept: paused or cancelled, held for Resume: never dropped;
 * - busy: a step of it is running now: never dropped.
 */
export type StoredJobClass = 'gone' | 'interrupted' | 'kept' | 'busy';

export type StoredJob = {
  kind: string;
  id: string;
  /** Every property of it: manifest, pieces (any generation), cancel and step marks; key plus value, UTF-8. */
  bytes: number;
  class: StoredJobClass;
  /** Its state's status ('paused', …); null for a record without one. */
  status: string | null;
  /** When it was last started or resumed (the index's); null when the index does not list it. */
  startedAt: number | null;
  /** The spreadsheet it runs in (the index's); null when the index does not list it. */
  spreadsheet: string | null;
};

export type JobStoreUsage = {
  jobs: StoredJob[];
  /** The index and anything else under the store's keys that belongs to no job. */
  otherBytes: number;
};

/** What the store knows of now, for telling the classes apart. */
export type BudgetContext = {
  nowMs: number;
  /** How long a job is offered for Resume after it started (six hours). */
  rememberMs: number;
};

const JOB_KEY = /^job:([^:#]+):([^#]+)(?:#.*)?$/;
const MARK_KEY = /^job-(?:cancel|step):([^:]+):(.+)$/;

function bytesOf(key: string, value: string): number {
  return utf8Bytes(key) + utf8Bytes(value);
}

/** Every byte of `all` the job store keeps (key plus value, UTF-8): its jobs, their marks and the index. */
export function jobStoreBytes(all: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const [key, value] of Object.entries(all)) if (key === JOBS_INDEX_KEY || JOB_KEY.test(key) || MARK_KEY.test(key)) bytes += bytesOf(key, value);
  return bytes;
}

/** The job store's part of `all` (every property of the user, as getProperties gives them), job by job. */
export function jobStoreUsage(all: Readonly<Record<string, string>>, context: BudgetContext): JobStoreUsage {
  const index = parseJobIndex(all[JOBS_INDEX_KEY] ?? null);
  const byJob = new Map<string, { kind: string; id: string; bytes: number }>();
  let otherBytes = 0;
  for (const [key, value] of Object.entries(all)) {
    const match = JOB_KEY.exec(key) ?? MARK_KEY.exec(key);
    if (!match) {
      if (key === JOBS_INDEX_KEY) otherBytes += bytesOf(key, value);
      continue;
    }
    const [, kind, id] = match as unknown as [string, string, string];
    const name = jobStateKey(kind, id);
    const entry = byJob.get(name) ?? { kind, id, bytes: 0 };
    entry.bytes += bytesOf(key, value);
    byJob.set(name, entry);
  }
  const jobs = [...byJob.values()].map(({ kind, id, bytes }): StoredJob => {
    const listed = index.find((job) => job.kind === kind && job.id === id);
    const status = statusOf(piecedValueIn(all, jobStateKey(kind, id)));
    const stepUntil = Number(all[jobStepKey(kind, id)] ?? '0');
    return {
      kind,
      id,
      bytes,
      class: classOf(status, stepUntil > context.nowMs, listed, context),
      status: status === undefined ? null : status,
      startedAt: listed?.startedAt ?? null,
      spreadsheet: listed?.spreadsheet ?? null,
    };
  });
  return { jobs, otherBytes };
}

/** A state's status; null for a value without a state (a record); undefined for a value missing or unreadable. */
function statusOf(text: string | null): string | null | undefined {
  if (text === null) return undefined;
  try {
    const parsed = JSON.parse(text) as { state?: { status?: unknown } } | null;
    if (parsed === null || typeof parsed !== 'object') return undefined;
    if (parsed.state === undefined) return null;
    return typeof parsed.state?.status === 'string' ? parsed.state.status : undefined;
  } catch {
    return undefined;
  }
}

function classOf(status: string | null | undefined, stepRunning: boolean, listed: JobIndexEntry | undefined, context: BudgetContext): StoredJobClass {
  if (stepRunning) return 'busy';
  // A record kept after its job (the last push, for Undo), a finished job, or pieces without a readable value.
  if (status === null || status === undefined || status === 'done') return 'gone';
  if (listed && context.nowMs - listed.startedAt >= context.rememberMs) return 'gone';
  if (status === 'running') return 'interrupted';
  // Paused or cancelled but in no index: never offered again (the index dropped it), so nothing holds it.
  return listed ? 'kept' : 'gone';
}

/** A write to make room for: the job's state key parts and the bytes its new properties take (piecedPutBytes). */
export type JobWrite = { kind: string; id: string; bytes: number };

export type RoomPlan =
  /**
   * `replaceFirst`: the job's old copy must go before its new one is written (the two do not fit together):
   * a rewrite killed in that moment loses the job's state, which a full store would otherwise refuse outright.
   */
  | { fits: true; drop: StoredJob[]; replaceFirst: boolean }
  /** `holding`: the kept and busy jobs left after every droppable one. */
  | { fits: false; drop: StoredJob[]; holding: StoredJob[]; peakBytes: number };

/**
 * What to drop so the write's peak (everything stored, the job's own old copy included, plus its new
 * properties) stays within `budget`: gone jobs first, then interrupted ones, oldest first in each. A job
 * already stored that still does not fit is rewritten old copy first (`replaceFirst`), with as few drops as
 * that needs; `fits: false` only for a job not stored yet.
 */
export function planJobStoreRoom(usage: JobStoreUsage, write: JobWrite, budget: number = JOB_STORE_BUDGET_BYTES): RoomPlan {
  const others = usage.jobs.filter((job) => !(job.kind === write.kind && job.id === write.id));
  const own = usage.jobs.find((job) => job.kind === write.kind && job.id === write.id)?.bytes ?? 0;
  const peak = usage.otherBytes + own + write.bytes + others.reduce((sum, job) => sum + job.bytes, 0);
  const oldestFirst = (a: StoredJob, b: StoredJob) => (a.startedAt ?? -Infinity) - (b.startedAt ?? -Infinity);
  const droppable = [
    ...others.filter((job) => job.class === 'gone').sort(oldestFirst),
    ...others.filter((job) => job.class === 'interrupted').sort(oldestFirst),
  ];
  /** The fewest droppable jobs, in order, that bring `from` within the budget (all of them when none do). */
  const dropsFor = (from: number): { drop: StoredJob[]; left: number } => {
    const drop: StoredJob[] = [];
    let left = from;
    for (const job of droppable) {
      if (left <= budget) break;
      drop.push(job);
      left -= job.bytes;
    }
    return { drop, left };
  };
  const together = dropsFor(peak);
  if (together.left <= budget) return { fits: true, drop: together.drop, replaceFirst: false };
  if (own > 0) return { fits: true, drop: dropsFor(peak - own).drop, replaceFirst: true };
  return { fits: false, drop: together.drop, holding: others.filter((job) => job.class === 'kept' || job.class === 'busy'), peakBytes: together.left };
}

const KIND_WORDS: Record<string, string> = {
  export: 'export',
  'audit-push': 'audit push',
  import: 'import',
  'audit-build': 'audit build',
  undo: 'undo',
};

function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

/** "a paused audit push started 40 minutes ago in another spreadsheet (120 KB)". */
function describeJob(job: StoredJob, context: BudgetContext & { spreadsheet: string }): string {
  const state = job.class === 'busy' ? 'running' : (job.status ?? 'kept');
  const minutes = job.startedAt === null ? null : Math.max(0, Math.round((context.nowMs - job.startedAt) / 60_000));
  const when = minutes === null ? '' : minutes < 1 ? ' started just now' : ` started ${countOf(minutes, 'minute')} ago`;
  const where = job.spreadsheet !== null && job.spreadsheet !== context.spreadsheet ? ' in another spreadsheet' : '';
  return `a ${state} ${KIND_WORDS[job.kind] ?? job.kind}${when}${where} (${kb(job.bytes)})`;
}

/**
 * The sentence refusing a new job: which kept jobs hold the room, and what to do. `what`: the new job in the
 * person's words ("export").
 */
export function budgetRefusal(
  plan: Extract<RoomPlan, { fits: false }>,
  write: JobWrite,
  context: BudgetContext & { spreadsheet: string },
  budget: number = JOB_STORE_BUDGET_BYTES,
): string {
  const what = KIND_WORDS[write.kind] ?? 'job';
  if (plan.holding.length === 0) {
    return `This ${what}'s state needs ${kb(write.bytes)}, more than the ${kb(budget)} your Apps Script properties keep for jobs, so it was not started. Split the range and run it in parts.`;
  }
  const named = plan.holding.slice(0, 4).map((job) => describeJob(job, context));
  const list = joinAnd(plan.holding.length > 4 ? [...named, countOf(plan.holding.length - 4, 'more job')] : named);
  const held = plan.holding.reduce((sum, job) => sum + job.bytes, 0);
  const hours = Math.round(context.rememberMs / 3_600_000);
  const them = plan.holding.length === 1 ? 'it' : 'them';
  return `This ${what} was not started: the ${kb(budget)} your Apps Script properties keep for jobs are held by ${countOf(plan.holding.length, 'job')} kept for Resume (${list}; ${kb(held)} together), and this one needs ${kb(write.bytes)} more. Resume ${them} from the sidebar of ${plan.holding.length === 1 ? 'its' : 'their'} spreadsheet and let ${them} finish, which frees ${plan.holding.length === 1 ? 'its' : 'their'} room; or, if you no longer need ${them}, leave ${them}: a job is dropped ${countOf(hours, 'hour')} after it started. Then start this ${what} again.`;
}

/**
 * Makes room in `store` for a write, as planJobStoreRoom says: removes every property of each dropped job
 * (and its index entry). Throws an InputError (budgetRefusal) when a new job (`isNew`) does not fit; a record
 * not stored yet (no state: the last push) that does not fit is written all the same (see the top of this
 * file). Returns the jobs dropped, and whether the job's old copy must go first (PiecedStore.put).
 */
export function makeJobStoreRoom(
  store: PropertyStore & { getProperties(): Record<string, string> },
  write: JobWrite & { isNew: boolean },
  context: BudgetContext & { spreadsheet: string },
  budget: number = JOB_STORE_BUDGET_BYTES,
): { dropped: StoredJob[]; replaceFirst: boolean } {
  const all = store.getProperties();
  // Most writes fit: counted without reading any job's state.
  if (jobStoreBytes(all) + write.bytes <= budget) return { dropped: [], replaceFirst: false };
  const usage = jobStoreUsage(all, context);
  const plan = planJobStoreRoom(usage, write, budget);
  // A new job refused drops nothing: what it would free is not needed yet.
  if (!plan.fits && write.isNew) throw new InputError(budgetRefusal(plan, write, context, budget));
  const replaceFirst = plan.fits && plan.replaceFirst;
  if (plan.drop.length === 0) return { dropped: [], replaceFirst };
  const dropped = new Set(plan.drop.map((job) => jobStateKey(job.kind, job.id)));
  for (const key of Object.keys(all)) {
    const match = JOB_KEY.exec(key) ?? MARK_KEY.exec(key);
    if (match && dropped.has(jobStateKey(match[1]!, match[2]!))) store.deleteProperty(key);
  }
  const index = parseJobIndex(all[JOBS_INDEX_KEY] ?? null);
  const kept = index.filter((job) => !dropped.has(jobStateKey(job.kind, job.id)));
  if (kept.length !== index.length) {
    if (kept.length > 0) store.setProperties({ [JOBS_INDEX_KEY]: JSON.stringify(kept) });
    else store.deleteProperty(JOBS_INDEX_KEY);
  }
  return { dropped: plan.drop, replaceFirst };
}
