// The add-in's name as users see it in the Extensions menu; messages point there.

export const ADDIN_NAME = 'Portfolio Metrics';
export const SETTINGS_HINT = `Extensions › ${ADDIN_NAME} › Open sidebar › Settings`;
