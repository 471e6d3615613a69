// Percent cells: Sheets stores "12%" as 0.12 with a percent format, while the API's `percent` unit
// holds percentage points (the demo's gross margin 62.3 means 62.3 %). The exporter sends what the
// analyst typed, 12, never 0.12 and never float noise from multiplying a double by 100.

import { normaliseDecimal } from '../validate/decimal';

/** Whether a metric's values are percentage points (contract: Metric.unit), compared without case. */
export function isPercentUnit(unit: string | undefined): boolean {
  return (unit ?? '').trim().toLowerCase() === 'percent';
}

/** Splits a format into its sections at ';', leaving quoted text and escaped characters alone. */
function sections(format: string): string[] {
  const result: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const char = format.charAt(i);
    if (char === '\\' && !quoted) {
      current += char + format.charAt(i + 1);
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      result.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  result.push(current);
  return result;
}

/**
 * Whether a number shows as a percentage under a Sheets number format: the section that applies to it
 * (positive; negative; zero) has a `%` outside quoted text, escapes and [brackets]. A `%` inside quotes
 * ("0 \"%\"") is a literal, not a scaling, so Sheets shows the number as it is and so do we.
 */
export function isPercentFormat(format: string | undefined, value: number): boolean {
  if (format === undefined || !format.includes('%')) return false;
  const parts = sections(format);
  const section = (value < 0 ? parts[1] : value === 0 ? parts[2] : undefined) ?? parts[0] ?? '';
  return section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .includes('%');
}

/**
 * Percentage points from the exact decimal of a fraction: the decimal point moves two places right on
 * the text (0.123 → 12.3, 0.12 → 12, -0.005 → -0.5), so no double arithmetic can add noise.
 */
export function fractionToPoints(decimal: string): string {
  const shifted = normaliseDecimal(`${decimal}e2`);
  if (shifted === undefined) throw new RangeError(`${decimal} is not decimal text`);
  return shifted;
}

/** "12%", " -3.5 % ": percent text as the cell shows it; the number before the sign, already in points. */
const PERCENT_TEXT = /^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*%\s*$/;

/** The points of percent text ("12%" → "12"), or undefined when the text is not a percentage. */
export function percentTextToPoints(text: string): string | undefined {
  const match = PERCENT_TEXT.exec(text);
  return match?.[1] === undefined ? undefined : normaliseDecimal(match[1]);
}
