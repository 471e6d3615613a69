// docs/guide.md names every control a person can press: each menu item the built add-in adds (read from the
// runtime's menu after onOpen), each tab and button of the sidebar page it serves (read from that page's HTML),
// and each button the sidebar's code creates in a state (Resume, Undo, Open the Pushes sheet…). A control the
// guide does not name is one an analyst meets without a word of explanation, so a new one fails this test until
// the guide says what it does.
//
// "Named" means written in emphasis, as the guide names what is on screen: *Save*, **Push changes**, or the last
// step of a menu path, *Extensions › Portfolio Metrics › Refresh data*. A plain mention does not count: "Load"
// or "Cancel" appear in sentences that are not about the button.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';
import { startStack, type Stack } from '../support/stack';

const guide = readFileSync(path.join(ROOT, 'docs', 'guide.md'), 'utf8');

/** Every emphasised phrase of the guide, and each step of an emphasised menu path. */
function namedInGuide(markdown: string): string[] {
  const phrases = [...markdown.matchAll(/(\*{1,2})([^*\n]+?)\1/g)].map((match) => match[2]!.trim());
  return phrases.flatMap((phrase) => [phrase, ...phrase.split('›').map((step) => step.trim())]);
}

/** The visible text of an element's inner HTML: tags dropped, entities of the page's text decoded, spaces folded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&hellip;/g, '…')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The tabs and buttons in the page's HTML as served (dist's sidebar, through HtmlService). */
function controlsOfPage(html: string): string[] {
  return [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((match) => textOf(match[1]!)).filter((text) => text.length > 0);
}

/**
 * Buttons the sidebar's code makes as states arise: `el('button', {…}, 'Text')`. A label built from a template
 * (`Open ${tab} to resume`) becomes a pattern in which each placeholder stands for any words.
 */
function controlsOfCode(): Array<{ label: string; pattern: RegExp; file: string }> {
  const dir = path.join(ROOT, 'sidebar');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .flatMap((file) => {
      const source = readFileSync(path.join(dir, file), 'utf8');
      return [...source.matchAll(/el\(\s*'button'\s*,\s*\{[^}]*\}\s*,\s*(['`])((?:(?!\1).)+)\1\s*\)/g)].map((match) => {
        const label = match[2]!;
        const parts = label.split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/);
        const pattern = new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`);
        return { label, pattern, file };
      });
    });
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const named = namedInGuide(guide);

it('reads its lists from the product (so an empty list cannot pass)', () => {
  const rt = stack.runtime();
  rt.run('onOpen', [{ authMode: 'FULL' }], { authMode: 'FULL' });
  rt.run('showSidebar');
  expect(rt.ui.menus.flatMap((menu) => menu.entries).filter((entry) => entry.kind === 'item').length).toBeGreaterThanOrEqual(7);
  expect(controlsOfPage(rt.ui.sidebars[0]!.html).length).toBeGreaterThanOrEqual(25);
  expect(controlsOfCode().length).toBeGreaterThanOrEqual(10);
  // The reading of emphasis itself: a menu path's last step counts, a plain word does not.
  expect(namedInGuide('Open *Extensions › Portfolio Metrics › Refresh data*, then press **Save**; Load later.')).toEqual(
    expect.arrayContaining(['Refresh data', 'Save']),
  );
  expect(namedInGuide('Load later.')).toEqual([]);
});

it('names every item of the add-in menu', () => {
  const rt = stack.runtime();
  rt.run('onOpen', [{ authMode: 'FULL' }], { authMode: 'FULL' });
  const items = rt.ui.menus.flatMap((menu) => menu.entries).flatMap((entry) => (entry.kind === 'item' ? [entry.caption] : []));
  expect(items.filter((caption) => !named.includes(caption))).toEqual([]);
});

it('names every tab and button of the sidebar page', () => {
  const rt = stack.runtime();
  rt.run('showSidebar');
  const controls = [...new Set(controlsOfPage(rt.ui.sidebars[0]!.html))];
  expect(controls.filter((label) => !named.includes(label))).toEqual([]);
});

it('names every button the sidebar makes in a state', () => {
  const missing = controlsOfCode().filter(({ pattern }) => !named.some((phrase) => pattern.test(phrase)));
  expect(missing.map(({ label, file }) => `${label} (${file})`)).toEqual([]);
});
