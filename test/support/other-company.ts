// Two companies the owner's token reaches: the default one (formula access allows it) and "Secret Co" (it does
// not), a monthly metric of each with data, and the request-log filter that finds any read of the secret one.

import type { Stack } from './stack';

export interface OtherCompany {
  /** A metric of the owner's default company, named `names.allowed`. */
  allowed: string;
  /** A metric of Secret Co, named "Secret burn". */
  secret: string;
  secretCompany: string;
}

/** Values 100, 101, … for the allowed metric and 9000, 9001, … for the secret one, on these dates. */
export async function withOtherCompany(stack: Stack, allowedName: string, dates: readonly string[]): Promise<OtherCompany> {
  const { companies } = await stack.emulator.control.fixtures({ companies: [{ name: 'Secret Co', kind: 'startup' }] });
  const secretCompany = companies[0]!.id;
  const { metrics } = await stack.emulator.control.fixtures({
    metrics: [
      { company_id: stack.emulator.companyId, name: allowedName, frequency: 'monthly', unit: 'USD' },
      { company_id: secretCompany, name: 'Secret burn', frequency: 'monthly', unit: 'USD' },
    ],
  });
  const [allowed, secret] = metrics.map((m) => m.id) as [string, string];
  await stack.emulator.control.fixtures({
    data_points: dates.flatMap((date, i) => [
      { metric_id: allowed, date, value: String(100 + i) },
      { metric_id: secret, date, value: String(9000 + i) },
    ]),
  });
  return { allowed, secret, secretCompany };
}

/** The requests since the last take that named Secret Co or its metric (path or query). */
export async function requestsNaming(stack: Stack, other: OtherCompany): Promise<unknown[]> {
  return (await stack.takeRequests()).filter((r) => `${r.path}?${r.query}`.includes(other.secret) || `${r.path}?${r.query}`.includes(other.secretCompany));
}
