// Colors as Apps Script reads them back: lowercase #rrggbb, whatever CSS form was written.

import { GasError } from '../errors';

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  lime: '#00ff00',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  cyan: '#00ffff',
  magenta: '#ff00ff',
  pink: '#ffc0cb',
  brown: '#a52a2a',
  navy: '#000080',
  teal: '#008080',
};

export const DEFAULT_BACKGROUND = '#ffffff';

export function normalizeColor(color: string): string {
  const text = String(color).trim().toLowerCase();
  const named = NAMED[text];
  if (named) return named;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  throw new GasError(`Invalid color: ${color}`);
}
