// Building the page from data: text goes in as text nodes, never as HTML.

import { showOutcome, type Outcome, type Tone } from './outcome';

type Attributes = Record<string, string | boolean | undefined>;

/** Creates an element; `children` strings become text nodes, so API strings can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
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
 * so a control could stay disabled for good). `soft`: the control had the focus, so it is held with aria-disabled
 * instead (a disabled control loses the focus to the page's body, and a keyboard or screen reader user is lost).
 */
const heldControls = new WeakMap<Element, { works: number; disabledBefore: boolean; soft: boolean; readOnlyBefore: boolean }>();
/** Per panel: works under way, and of them how many show a job's progress (see showingProgress). */
const busyPanels = new WeakMap<Element, { works: number; progress: number }>();

type Control = HTMLButtonElement | HTMLInputElement | HTMLSelectElement;

function hold(control: Control, focused: boolean): void {
  const held = heldControls.get(control) ?? {
    works: 0,
    disabledBefore: control.disabled,
    soft: focused && !control.disabled,
    readOnlyBefore: 'readOnly' in control && control.readOnly,
  };
  held.works += 1;
  heldControls.set(control, held);
  if (!held.soft) control.disabled = true;
  else {
    control.setAttribute('aria-disabled', 'true');
    if (control instanceof HTMLInputElement) control.readOnly = true;
  }
}

function release(control: Control): void {
  const held = heldControls.get(control);
  if (!held) return;
  held.works -= 1;
  if (held.works > 0) return;
  heldControls.delete(control);
  if (!held.soft) control.disabled = held.disabledBefore;
  else {
    control.removeAttribute('aria-disabled');
    if (control instanceof HTMLInputElement) control.readOnly = held.readOnlyBefore;
  }
}

/**
 * A control held with aria-disabled stays focusable but must do nothing, as a disabled one would: its clicks
 * (Enter and Space on a button or a box are clicks too) and its keys, Tab aside, are stopped before any handler.
 */
function refuseSoftHeld(event: Event): void {
  const target = event.target instanceof Element ? event.target.closest('[aria-disabled="true"]') : null;
  if (!target) return;
  if (event instanceof KeyboardEvent && event.key === 'Tab') return;
  event.preventDefault();
  event.stopImmediatePropagation();
}
document.addEventListener('click', refuseSoftHeld, true);
document.addEventListener('keydown', refuseSoftHeld, true);

/**
 * aria-busy says the panel's content is changing and not worth reading yet, so screen readers hold back what
 * changes inside it: right while a call is awaited, wrong while a job shows its progress (which must be heard).
 * data-busy says only that work is under way (its controls are held): what the page and its tests wait on.
 */
function markBusy(panel: Element): void {
  const state = busyPanels.get(panel);
  panel.toggleAttribute('data-busy', Boolean(state));
  if (state && state.progress === 0) panel.setAttribute('aria-busy', 'true');
  else panel.removeAttribute('aria-busy');
}

/** While a job's progress is shown inside `node`, its panel is not aria-busy; the returned function ends that. */
export function showingProgress(node: Element): () => void {
  const panel = node.closest('[data-busy]');
  const state = panel && busyPanels.get(panel);
  if (!panel || !state) return () => undefined;
  state.progress += 1;
  markBusy(panel);
  return () => {
    state.progress -= 1;
    markBusy(panel);
  };
}

/** Focuses `target` without scrolling any frame: focusable for the moment if it is not a control. */
export function focusOn(target: HTMLElement): void {
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}

/**
 * Ties an error to its field, for a screen reader as well as the eye: the sentence under the field, named by the
 * field's aria-describedby, and aria-invalid on a form field. clearFieldErrors (the next action) takes it away.
 */
export function markInvalid(field: HTMLElement, message: string): void {
  const id = `${field.id}-error`;
  const note = document.getElementById(id) ?? el('p', { id, class: 'field-error' });
  note.textContent = message;
  if (!note.isConnected) (field.closest('.row') ?? field).after(note);
  if (field.matches('input, select, textarea')) field.setAttribute('aria-invalid', 'true');
  const described = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  if (!described.includes(id)) field.setAttribute('aria-describedby', [...described, id].join(' '));
}

/** Takes away the errors markInvalid tied to fields inside `root` (or to `root` itself, a field). */
export function clearFieldErrors(root: HTMLElement): void {
  const fields = Array.from(root.querySelectorAll<HTMLElement>('[aria-describedby]'));
  if (root.hasAttribute('aria-describedby')) fields.push(root);
  for (const field of fields) {
    const id = `${field.id}-error`;
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((other) => other && other !== id);
    if (described.length) field.setAttribute('aria-describedby', described.join(' '));
    else field.removeAttribute('aria-describedby');
    field.removeAttribute('aria-invalid');
    document.getElementById(id)?.remove();
  }
}

// A field's error goes once the person edits the field.
document.addEventListener('input', (event) => {
  if (event.target instanceof HTMLElement && event.target.getAttribute('aria-invalid') === 'true') clearFieldErrors(event.target);
});

/**
 * Disables the controls of a panel while its work runs (the focused one with aria-disabled, so the focus stays
 * on it). The work ends by returning its Outcome, which goes into the status line with its report brought into
 * view (see showOutcome); a thrown error goes into the status line as an error. An error about one field is
 * also tied to that field, which gets the focus; focus lost meanwhile (its control hidden or removed) goes to
 * the report, or else to the status line. The panel is busy until the last of its works under way ends.
 */
export async function busy(panel: HTMLElement, status: HTMLElement, label: string, work: () => Promise<Outcome | void>): Promise<void> {
  const focused = document.activeElement;
  const hadFocus = focused instanceof HTMLElement && panel.contains(focused);
  const controls = Array.from(panel.querySelectorAll<Control>('button, input, select'));
  controls.forEach((control) => hold(control, control === focused));
  const state = busyPanels.get(panel) ?? { works: 0, progress: 0 };
  state.works += 1;
  busyPanels.set(panel, state);
  markBusy(panel);
  clearFieldErrors(panel);
  say(status, label);
  // biome-ignore lint/complexity/noUselessUndefinedInitialization: read after the try, which TypeScript would call possibly unassigned
  let outcome: Outcome | void = undefined;
  try {
    outcome = await work();
    if (outcome) showOutcome(status, outcome);
  } catch (error) {
    showOutcome(status, { line: error instanceof Error ? error.message : String(error), tone: 'error' });
  } finally {
    controls.forEach(release);
    state.works -= 1;
    if (state.works === 0) busyPanels.delete(panel);
    markBusy(panel);
  }
  if (outcome?.field && outcome.tone === 'error') {
    markInvalid(outcome.field, outcome.line);
    // A list of boxes (the metrics) takes the focus at its one tab stop.
    if (hadFocus)
      focusOn(outcome.field.matches('input, select, textarea') ? outcome.field : (outcome.field.querySelector<HTMLElement>('[tabindex="0"]') ?? outcome.field));
  } else if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
    focusOn(outcome?.report?.isConnected ? outcome.report : status);
  }
}

/** The page counts as the server does: "1 row", "1,000 rows" (shared/words.ts). */
export { countOf, formatCount } from '../src/shared/words';
