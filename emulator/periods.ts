// Calendar periods: a data point's date must be the first day of its metric's period.

const DAY_MS = 86_400_000;

/** Why `date` is not the start of a `frequency` period, or null when it is. Unknown frequencies accept any day. */
export function periodStartProblem(frequency: string, date: string): string | null {
  const [year, month, day] = date.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return 'must be a date (YYYY-MM-DD)';
  switch (frequency) {
    case 'weekly':
      return new Date(Date.UTC(year, month - 1, day)).getUTCDay() === 1 ? null : 'must be a Monday, the start of a weekly period';
    case 'monthly':
      return day === 1 ? null : 'must be the first day of a month, the start of a monthly period';
    case 'quarterly':
      return day === 1 && [1, 4, 7, 10].includes(month) ? null : 'must be 1 January, April, July or October, the start of a quarterly period';
    case 'annually':
      return day === 1 && month === 1 ? null : 'must be 1 January, the start of an annual period';
    default:
      return null;
  }
}

/** Every period start of `frequency` from `first` to `last` inclusive (both YYYY-MM-DD, `first` a period start). */
export function periodStarts(frequency: string, first: string, last: string): string[] {
  const dates: string[] = [];
  let current = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`).getTime();
  while (current.getTime() <= end) {
    dates.push(current.toISOString().slice(0, 10));
    current = nextPeriod(frequency, current);
  }
  return dates;
}

function nextPeriod(frequency: string, date: Date): Date {
  switch (frequency) {
    case 'daily':
      return new Date(date.getTime() + DAY_MS);
    case 'weekly':
      return new Date(date.getTime() + 7 * DAY_MS);
    case 'monthly':
      return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
    case 'quarterly':
      return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 3, 1));
    default:
      return new Date(Date.UTC(date.getUTCFullYear() + 1, 0, 1));
  }
}
