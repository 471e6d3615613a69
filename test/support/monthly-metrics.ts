// Monthly metrics of the emulator's default company whose values say where they are: metric m in month p holds
// m * 1000 + p, so a test can check every cell of a model without a table of expected values.

import type { Stack } from './stack';

/** The first `n` month labels (YYYY-MM) from January of `firstYear`. */
export function monthLabels(n: number, firstYear: number): string[] {
  return Array.from({ length: n }, (_, i) => `${firstYear + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
}

/** `count` monthly metrics, each with a value on the first of each of `months` months from January of `firstYear`; the request log is cleared. */
export async function createMonthlyMetrics(stack: Stack, options: { count: number; months: number; firstYear: number; name: string }): Promise<string[]> {
  const { metrics } = await stack.emulator.control.fixtures({
    metrics: Array.from({ length: options.count }, (_, i) => ({
      company_id: stack.emulator.companyId,
      name: `${options.name} ${i}`,
      frequency: 'monthly',
      unit: 'USD',
    })),
  });
  await stack.emulator.control.fixtures({
    data_points: metrics.flatMap((metric, m) =>
      monthLabels(options.months, options.firstYear).map((month, p) => ({ metric_id: metric.id, date: `${month}-01`, value: String(m * 1000 + p) })),
    ),
  });
  await stack.emulator.control.clearRequests();
  return metrics.map((metric) => metric.id);
}
