// How every action of every tab ends: a one-line summary in the tab's status line, coloured by what
// happened, and the action's report (when it has one) brought into view. One function does it for all
// tabs, so no panel can end an action with an empty status line or a report below the fold.

/** 'partial': some of the work was stored and some was not; the line shows each part in its own colour. */
export type Tone = 'success' | 'warning' | 'error' | 'partial';

export type Outcome = {
  /** One line for the tab's status line. */
  line: string;
  tone: Tone;
  /** The report the action wrote, to scroll into view; absent when the status line is the whole answer. */
  report?: HTMLElement | null;
  /** The field an error is about: busy() ties the sentence to it (aria-invalid, aria-describedby) and focuses it. */
  field?: HTMLElement | null;
};

/** What did not go as asked, counted from a job's totals. */
export type Shortfall = {
  /** Refused by the API, or by the add-in's checks before sending. */
  failed?: number;
  /** Edits the add-in declined to send (an auto-calculated property, a cell not in the audit). */
  refused?: number;
  /** No clear answer: may have been stored. */
  unknown?: number;
  /** Left unsent because the job was cancelled or paused. */
  notSent?: number;
};

/**
 * Green only when nothing failed, was refused or is unknown and nothing was left unsent. Anything
 * refused or failed is an error (red) even when the rest was stored, since those rows need the
 * analyst's attention; work merely left unsent (a cancel) is a warning.
 */
export function toneOf(shortfall: Shortfall, stoppedOnProblem = false): Tone {
  if (stoppedOnProblem || (shortfall.failed ?? 0) + (shortfall.refused ?? 0) + (shortfall.unknown ?? 0) > 0) return 'error';
  if ((shortfall.notSent ?? 0) > 0) return 'warning';
  return 'success';
}

/** Counts of work stored, in the words the add-in's summaries use ("2 created", "1 updated", "3 written"). */
const STORED = /^\d[\d,]* (created|updated|written|sent|stored|added|restored|pushed|overwritten)\b/;
/** Counts of work not stored ("2 failed", "1 refused", "3 not sent", "2 conflicts"). */
const NOT_STORED = /^\d[\d,]* (failed|refused|unknown|not sent|conflicts?|skipped)\b/;

/**
 * A summary's parts, each marked when it counts what was not stored, so a partial success shows what was
 * written in the normal colour and what was refused in red. Split at commas, colons and semicolons, which
 * the summaries use between their counts; the separators stay with the text before them.
 */
export function summaryParts(line: string): Array<{ text: string; bad: boolean }> {
  return (line.match(/[^,:;]+[,:;]?\s*/g) ?? [line]).map((text) => ({ text, bad: NOT_STORED.test(text.trim()) }));
}

/** Whether a red (error) outcome stored part of its work: then it is partial, not all red. */
export function partialTone(line: string, tone: Tone): Tone {
  if (tone !== 'error') return tone;
  const parts = summaryParts(line).map((part) => part.text.trim());
  const stored = parts.some((text) => STORED.test(text) && !/^0\b/.test(text));
  return stored && parts.some((text) => NOT_STORED.test(text)) ? 'partial' : tone;
}

/** Writes a line into `target`: for a partial outcome, what was not stored in red spans; otherwise plain text. */
export function writeLine(target: HTMLElement, line: string, tone: Tone): void {
  if (tone !== 'partial') {
    target.textContent = line;
    return;
  }
  target.replaceChildren(
    ...summaryParts(line).map((part) => {
      if (!part.bad) return document.createTextNode(part.text);
      const span = document.createElement('span');
      span.className = 'bad';
      span.textContent = part.text;
      return span;
    }),
  );
}

/** A job's status line: its summary, after how it stopped when it did not run to its end. */
export function jobLine(status: string, summary: string): string {
  if (status === 'done') return summary;
  if (status === 'paused') return `Paused. ${summary}`;
  return `Cancelled. ${summary}`;
}

/**
 * Writes the outcome in `status` and scrolls the report's top to the top of the sidebar. Scrolls this
 * document only (not Element.scrollIntoView, which would also scroll the frames that hold the sidebar:
 * Sheets' own page, or the workbench's).
 */
export function showOutcome(status: HTMLElement, outcome: Outcome): void {
  writeLine(status, outcome.line, outcome.tone);
  status.className = `status ${outcome.tone}`;
  const report = outcome.report;
  if (!report?.isConnected) return;
  const scroller = document.scrollingElement ?? document.documentElement;
  // A little room above, so the report does not start flush against the edge.
  scroller.scrollTop += report.getBoundingClientRect().top - 8;
}
