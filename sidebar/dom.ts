// Building the page from data: text goes in as text nodes, never as HTML.

import { showOutcome, type Outcome, type Tone } from './outcome';

type Attributes = Record<string, string | boolean | undefined>;

/** Creates an element; `children` strings become text nodes, so API strings can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Array<Node | string | null | undefined>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found as T;
}

/** A status line that screen readers announce. */
export function say(target: HTMLElement, text: string, kind: Tone | 'info' = 'info'): void {
  target.textContent = text;
  target.className = `status ${kind}`;
}

/**
 * What busy() holds: how many works under way hold each control (and each panel), and whether the control was
 * disabled before the first of them. Works overlap (a tab's load and a section's load inside it; google.script.run
 * calls run side by side) and end in any order: a control comes back when the last work holding it ends, to the
 * state it had before any of them, not to what one work saw when it began (which may be another work's disabling,
 * so a control could stay disabled for good).
 */
const heldControls = new WeakMap<Element, { works: number; disabledBefore: boolean }>();
const busyPanels = new WeakMap<Element, number>();

type Control = HTMLButtonElement | HTMLInputElement | HTMLSelectElement;

function hold(control: Control): void {
  const held = heldControls.get(control) ?? { works: 0, disabledBefore: control.disabled };
  held.works += 1;
  heldControls.set(control, held);
  control.disabled = true;
}

function release(control: Control): void {
  const held = heldControls.get(control);
  if (!held) return;
  held.works -= 1;
  if (held.works > 0) return;
  heldControls.delete(control);
  control.disabled = held.disabledBefore;
}

/**
 * Disables the controls of a panel while its work runs. The work ends by returning its Outcome, which
 * goes into the status line with its report brought into view (see showOutcome); a thrown error goes
 * into the status line as an error. The panel is aria-busy until the last of its works under way ends.
 */
export async function busy(panel: HTMLElement, status: HTMLElement, label: string, work: () => Promise<Outcome | void>): Promise<void> {
  const controls = Array.from(panel.querySelectorAll<Control>('button, input, select'));
  controls.forEach(hold);
  busyPanels.set(panel, (busyPanels.get(panel) ?? 0) + 1);
  panel.setAttribute('aria-busy', 'true');
  say(status, label);
  try {
    const outcome = await work();
    if (outcome) showOutcome(status, outcome);
  } catch (error) {
    showOutcome(status, { line: error instanceof Error ? error.message : String(error), tone: 'error' });
  } finally {
    controls.forEach(release);
    const left = (busyPanels.get(panel) ?? 1) - 1;
    if (left > 0) busyPanels.set(panel, left);
    else {
      busyPanels.delete(panel);
      panel.removeAttribute('aria-busy');
    }
  }
}

/** The page counts as the server does: "1 row", "1,000 rows" (shared/words.ts). */
export { countOf, formatCount } from '../src/shared/words';
