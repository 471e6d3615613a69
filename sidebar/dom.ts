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
 * Disables the controls of a panel while its work runs. The work ends by returning its Outcome, which
 * goes into the status line with its report brought into view (see showOutcome); a thrown error goes
 * into the status line as an error.
 */
export async function busy(panel: HTMLElement, status: HTMLElement, label: string, work: () => Promise<Outcome | void>): Promise<void> {
  const controls = Array.from(panel.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>('button, input, select'));
  const wasDisabled = controls.map((c) => c.disabled);
  controls.forEach((c) => (c.disabled = true));
  panel.setAttribute('aria-busy', 'true');
  say(status, label);
  try {
    const outcome = await work();
    if (outcome) showOutcome(status, outcome);
  } catch (error) {
    showOutcome(status, { line: error instanceof Error ? error.message : String(error), tone: 'error' });
  } finally {
    controls.forEach((c, i) => (c.disabled = wasDisabled[i] ?? false));
    panel.removeAttribute('aria-busy');
  }
}

/** A count with its noun in agreement: "1 row", "2 rows". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
