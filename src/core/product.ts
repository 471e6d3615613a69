// The add-in's name as the Extensions menu shows it (messages point there).

export const ADDIN_NAME = 'Portfolio Metrics';
export const SETTINGS_HINT = `Extensions › ${ADDIN_NAME} › Open sidebar › Settings`;

/** "1 metric", "3 metrics": the one count style of shared/words.ts, by the name older files use. */
export { countOf as plural } from '../shared/words';
