// Words users read: the add-in's name as the Extensions menu shows it (messages point there), and counts.

export const ADDIN_NAME = 'Portfolio Metrics';
export const SETTINGS_HINT = `Extensions › ${ADDIN_NAME} › Open sidebar › Settings`;

/** "1 metric", "3 metrics": a count with its noun, for sentences the sidebar shows. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
