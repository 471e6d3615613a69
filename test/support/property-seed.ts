// One fixed seed for every property test, so CI never fails at random; the seed is in each test's name, and a
// run can be repeated exactly. Counterexamples a test once found stay in it as explicit `examples`.

export const PROPERTY_SEED = 20261123;

/** fast-check parameters: the fixed seed, and how many runs. */
export function seeded<Ts>(numRuns: number, examples: Ts[] = []): { seed: number; numRuns: number; examples: Ts[] } {
  return { seed: PROPERTY_SEED, numRuns, examples };
}
