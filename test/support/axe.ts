// axe-core (the accessibility rules engine) run inside a page or frame: WCAG 2.0 and 2.1, levels A and AA.

import { readFileSync } from 'node:fs';
import type { CDPSession, Frame, Page } from 'playwright-core';

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
 *
 * The hover and keyboard-focus styles are put on every button at once through the DevTools protocol
 * (CSS.forcePseudoState: :hover, and :focus with :focus-visible, as the Elements panel forces them), and the colours
 * read in one call per state: the same cascade a pointer or a Tab reaches, without moving the pointer to, scrolling to
 * and focusing each button in turn, which took 8 round trips a button (a third of sidebar-a11y's time). The sidebar's
 * styles give a button its hover and focus colours by its own state alone (no ancestor's :hover, no transition), so
 * forcing them on the buttons together reads what each one shows alone.
 */
export async function contrastShortfalls(frame: Frame, panel: string): Promise<string[]> {
  const found: string[] = [];
  const selector = `${panel} button:not([disabled]):not([aria-disabled="true"]):not([hidden])`;
  // Each visible button (as Playwright's isVisible: a box, and not visibility: hidden) marked with its place among those matched.
  const marked = await frame.$$eval(
    selector,
    (buttons, attribute) =>
      buttons.flatMap((button, i) => {
        const box = button.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || !button.checkVisibility({ visibilityProperty: true })) return [];
        button.setAttribute(attribute, String(i));
        return [i];
      }),
    PROBE,
  );
  const cdp = await devtools(frame.page());
  let nodes: number[] = [];
  const unforce = () => Promise.all(nodes.map((nodeId) => cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: [] })));
  try {
    nodes = await probedNodes(cdp);
    if (nodes.length !== marked.length)
      throw new Error(`contrastShortfalls: ${marked.length} buttons marked in ${panel}, ${nodes.length} found through DevTools`);
    for (const [state, classes] of [
      ['hover', ['hover']],
      ['focus', ['focus', 'focus-visible']],
    ] as const) {
      await Promise.all(nodes.map((nodeId) => cdp.send('CSS.forcePseudoState', { nodeId, forcedPseudoClasses: [...classes] })));
      const ratios = await frame.$$eval(
        `[${PROBE}]`,
        (buttons, { attribute, css }) =>
          buttons.map((node) => ({
            i: Number(node.getAttribute(attribute)),
            ...(new Function('node', css)(node) as { ratio: number; text: string; fg: string; bg: string }),
          })),
        { attribute: PROBE, css: TEXT_CONTRAST },
      );
      await unforce();
      for (const ratio of ratios)
        if (ratio.ratio < 4.5)
          found.push(`${panel} button ${ratio.i} "${ratio.text}" ${state}: ${ratio.fg} on ${ratio.bg} is ${ratio.ratio.toFixed(2)}:1, under 4.5:1`);
    }
  } finally {
    // Nothing forced or marked is left for what the test looks at next (axe, a click).
    await unforce();
    await frame.$$eval(`[${PROBE}]`, (buttons, attribute) => buttons.forEach((button) => button.removeAttribute(attribute)), PROBE);
  }
  // Sorted as the buttons are, each hover line before its focus line, as a button-by-button walk would list them.
  found.sort((a, b) => placeOf(a) - placeOf(b));
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

/** The attribute that marks the buttons contrastShortfalls forces states on, for the moment it looks at them. */
const PROBE = 'data-contrast-probe';

function placeOf(line: string): number {
  return Number(/ button (\d+) /.exec(line)?.[1] ?? 0);
}

/** The DevTools node ids of the marked buttons, in whichever frame of the page they are (the sidebar is a frame of it). */
async function probedNodes(cdp: CDPSession): Promise<number[]> {
  // A search reaches every frame's document; the document is asked for first, as the search needs, but not its tree.
  await cdp.send('DOM.getDocument', { depth: 0 });
  const { searchId, resultCount } = await cdp.send('DOM.performSearch', { query: `[${PROBE}]` });
  try {
    return resultCount ? (await cdp.send('DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: resultCount })).nodeIds : [];
  } finally {
    await cdp.send('DOM.discardSearchResults', { searchId });
  }
}

/** One DevTools session a page, its DOM and CSS domains on (forcePseudoState needs both). */
const sessions = new WeakMap<Page, Promise<CDPSession>>();
async function devtools(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  const cdp = await session;
  // Again each time: cheap, and a reload must not leave them off.
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  return cdp;
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
