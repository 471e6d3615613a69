// axe-core (the accessibility rules engine) run inside a page or frame: WCAG 2.0 and 2.1, levels A and AA.

import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The rules' tags run: what WCAG 2.1 AA asks (2.0's rules included; 2.2 and best practices left out). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** axe's context as an object: a page checked with parts of it left out (a frame that has its own test). */
export interface AxeContext {
  exclude: string[][];
}

/** The violations axe finds in `target` (a page or the sidebar's frame), or in the part of it `selector` names. */
export async function axeViolations(target: Page | Frame, selector?: string | AxeContext): Promise<Violation[]> {
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE_SOURCE);
  return target.evaluate(
    async ({ tags, include }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> } }).axe;
      const result = await axe.run(include ?? document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
      }));
    },
    { tags: [...WCAG_TAGS], include: selector },
  );
}

/**
 * Fails with each violation's rule id, the elements it found and axe's summary of what to fix, so a failure
 * reads as the list of things to change. `context` names the state checked ("Export tab, preview shown").
 */
export async function expectNoAxeViolations(target: Page | Frame, context: string, selector?: string | AxeContext): Promise<void> {
  const violations = await axeViolations(target, selector);
  const lines = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'no impact'}) at ${JSON.stringify(n.target)}: ${v.help}. ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
  if (lines.length) throw new Error(`axe found ${lines.length} WCAG 2.1 A/AA violation${lines.length === 1 ? '' : 's'} in ${context}:\n${lines.join('\n')}`);
}

/**
 * What axe does not check, computed from the styles: each visible, enabled button's text against its
 * background while hovered and while focused from the keyboard (4.5:1, WCAG 1.4.3), and each text field's and
 * select's edge against what is behind it (3:1, WCAG 1.4.11). Answers one line per shortfall.
 */
export async function contrastShortfalls(frame: Frame, panel: string): Promise<string[]> {
  const found: string[] = [];
  const buttons = await frame.$$(`${panel} button:not([disabled]):not([aria-disabled="true"]):not([hidden])`);
  for (const [i, button] of buttons.entries()) {
    if (!(await button.isVisible())) continue;
    // In the middle of the view, clear of the sticky status line that would take the pointer (the keyboard test checks the focus is clear of it).
    await button.evaluate((node) => node.scrollIntoView({ block: 'center' }));
    for (const state of ['hover', 'focus'] as const) {
      if (state === 'hover') await button.hover();
      else {
        // Keyboard focus, so that :focus-visible applies as it does for someone tabbing.
        await frame.page().mouse.move(0, 0);
        await button.focus();
        await frame.page().keyboard.press('Shift');
      }
      const ratio = await button.evaluate(
        (node, css) => new Function('node', css)(node) as { ratio: number; text: string; fg: string; bg: string },
        TEXT_CONTRAST,
      );
      if (ratio.ratio < 4.5)
        found.push(`${panel} button ${i} "${ratio.text}" ${state}: ${ratio.fg} on ${ratio.bg} is ${ratio.ratio.toFixed(2)}:1, under 4.5:1`);
    }
  }
  await frame.page().mouse.move(0, 0);
  const edges = await frame.$$eval(
    `${panel} :is(input[type="text"], input[type="password"], input[type="url"], input[type="search"], input[type="date"], select, textarea)`,
    (fields, css) =>
      fields
        .filter((field) => (field as HTMLElement).offsetParent !== null)
        .map((field) => ({
          id: field.id || (field as HTMLSelectElement).name || field.className,
          ...(new Function('node', css)(field) as { ratio: number; fg: string; bg: string }),
        })),
    EDGE_CONTRAST,
  );
  for (const edge of edges) if (edge.ratio < 3) found.push(`${panel} field ${edge.id}: edge ${edge.fg} on ${edge.bg} is ${edge.ratio.toFixed(2)}:1, under 3:1`);
  return found;
}

/** Shared by the two checks below, run in the page: relative luminance, contrast, the opaque colour behind a node. */
const COLOUR_FUNCTIONS = `
  const channels = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (start) => { for (let n = start; n; n = n.parentElement) { const c = channels(getComputedStyle(n).backgroundColor); if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3); } return [255, 255, 255]; };
`;
const TEXT_CONTRAST = `${COLOUR_FUNCTIONS}
  const fg = channels(getComputedStyle(node).color).slice(0, 3);
  const bg = behind(node);
  return { ratio: contrast(fg, bg), text: node.textContent.trim(), fg: 'rgb(' + fg + ')', bg: 'rgb(' + bg + ')' };`;
const EDGE_CONTRAST = `${COLOUR_FUNCTIONS}
  const fg = channels(getComputedStyle(node).borderTopColor).slice(0, 3);
  const bg = behind(node.parentElement);
  return { ratio: contrast(fg, bg), fg: 'rgb(' + fg + ')', bg: 'rgb(' + bg + ')' };`;
