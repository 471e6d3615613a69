// The add-in's name as the Extensions menu shows it (messages point there).

export const ADDIN_NAME = 'Portfolio Metrics';
export const SETTINGS_HINT = `Extensions › ${ADDIN_NAME} › Open sidebar › Settings`;
