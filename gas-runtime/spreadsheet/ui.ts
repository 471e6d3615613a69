// SpreadsheetApp.getUi(): menus, sidebars, dialogs, alerts and prompts, recorded for tests to read (rt.ui).

import { EnumNamespace, enumName } from '../enums';
import { GasError } from '../errors';
import { HtmlOutput } from '../html';
import { signatureError } from '../signature';

export const Button = new EnumNamespace('Button', ['CLOSE', 'OK', 'CANCEL', 'YES', 'NO'] as const);
export const ButtonSet = new EnumNamespace('ButtonSet', ['OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL'] as const);
type ButtonName = 'CLOSE' | 'OK' | 'CANCEL' | 'YES' | 'NO';
type ButtonSetName = 'OK' | 'OK_CANCEL' | 'YES_NO' | 'YES_NO_CANCEL';

export type MenuEntry =
  | { kind: 'item'; caption: string; functionName: string }
  | { kind: 'separator' }
  | { kind: 'submenu'; caption: string; entries: MenuEntry[] };

export interface MenuRecord {
  /** The menu's caption; null for the add-on menu, which Sheets captions with the add-on's name. */
  caption: string | null;
  addon: boolean;
  entries: MenuEntry[];
}

export interface HtmlRecord {
  title: string;
  html: string;
  width: number | null;
  height: number | null;
}

export interface DialogRecord extends HtmlRecord {
  modal: boolean;
}

export interface AlertRecord {
  title: string | null;
  prompt: string;
  buttons: ButtonSetName;
  /** The button the test's queued answer (or the default) pressed. */
  answer: ButtonName;
}

export interface PromptRecord extends AlertRecord {
  responseText: string;
}

export interface ToastRecord {
  message: string;
  title: string;
  timeoutSeconds: number;
}

/** Everything the script showed, across executions; tests queue the answers alerts and prompts should get. */
export class UiRecorder {
  readonly menus: MenuRecord[] = [];
  readonly sidebars: HtmlRecord[] = [];
  readonly dialogs: DialogRecord[] = [];
  readonly alerts: AlertRecord[] = [];
  readonly prompts: PromptRecord[] = [];
  readonly toasts: ToastRecord[] = [];
  readonly #answers: Array<{ button: ButtonName; text: string }> = [];

  /** The next alert or prompt is answered with `button` (and `text`, for a prompt). Unanswered, the first button of the set is pressed. */
  queueAnswer(button: ButtonName, text = ''): void {
    this.#answers.push({ button, text });
  }

  /** The function a menu item calls, found by its caption in any menu. */
  menuFunction(caption: string): string | undefined {
    const search = (entries: MenuEntry[]): string | undefined => {
      for (const entry of entries) {
        if (entry.kind === 'item' && entry.caption === caption) return entry.functionName;
        if (entry.kind === 'submenu') {
          const found = search(entry.entries);
          if (found) return found;
        }
      }
      return undefined;
    };
    for (const menu of this.menus) {
      const found = search(menu.entries);
      if (found) return found;
    }
    return undefined;
  }

  /** The sidebar shown last, if any. */
  lastSidebar(): HtmlRecord | undefined {
    return this.sidebars[this.sidebars.length - 1];
  }

  /** Forgets everything recorded and queued. */
  reset(): void {
    for (const list of [this.menus, this.sidebars, this.dialogs, this.alerts, this.prompts, this.toasts, this.#answers]) list.length = 0;
  }

  _addMenu(menu: MenuRecord): void {
    // Adding a menu again (every onOpen does) replaces it, as in Sheets.
    const index = this.menus.findIndex((existing) => existing.addon === menu.addon && existing.caption === menu.caption);
    if (index >= 0) this.menus.splice(index, 1, menu);
    else this.menus.push(menu);
  }

  _answer(buttons: ButtonSetName): { button: ButtonName; text: string } {
    const queued = this.#answers.shift();
    if (queued) return queued;
    return { button: buttons === 'YES_NO' || buttons === 'YES_NO_CANCEL' ? 'YES' : 'OK', text: '' };
  }
}

export class Menu {
  static readonly gasName = 'Menu';
  readonly #entries: MenuEntry[] = [];

  constructor(
    readonly _recorder: UiRecorder,
    readonly _caption: string | null,
    readonly _addon: boolean,
  ) {}

  addItem(caption: string, functionName: string): Menu {
    if (typeof caption !== 'string' || typeof functionName !== 'string') throw signatureError('Menu.addItem', [caption, functionName]);
    this.#entries.push({ kind: 'item', caption, functionName });
    return this;
  }

  addSeparator(): Menu {
    this.#entries.push({ kind: 'separator' });
    return this;
  }

  addSubMenu(menu: Menu): Menu {
    if (!(menu instanceof Menu)) throw signatureError('Menu.addSubMenu', [menu]);
    this.#entries.push({ kind: 'submenu', caption: menu._caption ?? '', entries: menu._entries() });
    return this;
  }

  addToUi(): void {
    this._recorder._addMenu({ caption: this._caption, addon: this._addon, entries: this._entries() });
  }

  _entries(): MenuEntry[] {
    return structuredClone(this.#entries);
  }
}

export class PromptResponse {
  static readonly gasName = 'PromptResponse';

  constructor(
    readonly _text: string,
    readonly _button: ButtonName,
  ) {}

  getResponseText(): string {
    return this._text;
  }

  getSelectedButton(): unknown {
    return Button._get(this._button);
  }
}

function htmlRecord(output: unknown, title: string | null, method: string): HtmlRecord {
  if (!(output instanceof HtmlOutput)) throw signatureError(`Ui.${method}`, [output, title ?? undefined]);
  return { title: title ?? output.getTitle(), html: output.getContent(), width: output.getWidth(), height: output.getHeight() };
}

/** Reads alert/prompt overloads: (prompt), (prompt, buttons), (title, prompt, buttons). */
function dialogArgs(args: unknown[], method: string): { title: string | null; prompt: string; buttons: ButtonSetName } {
  const [first, second, third] = args;
  if (args.length >= 3) {
    const buttons = enumName(ButtonSet, third);
    if (!buttons) throw signatureError(`Ui.${method}`, args);
    return { title: String(first), prompt: String(second), buttons };
  }
  if (args.length === 2) {
    const buttons = enumName(ButtonSet, second);
    if (!buttons) throw signatureError(`Ui.${method}`, args);
    return { title: null, prompt: String(first), buttons };
  }
  if (args.length === 1) return { title: null, prompt: String(first), buttons: 'OK' };
  throw signatureError(`Ui.${method}`, args);
}

export class Ui {
  static readonly gasName = 'Ui';
  readonly Button = Button;
  readonly ButtonSet = ButtonSet;

  constructor(readonly _recorder: UiRecorder) {}

  createMenu(caption: string): Menu {
    if (typeof caption !== 'string' || caption === '') throw new GasError('Invalid argument: caption');
    return new Menu(this._recorder, caption, false);
  }

  createAddonMenu(): Menu {
    return new Menu(this._recorder, null, true);
  }

  showSidebar(userInterface: HtmlOutput): void {
    this._recorder.sidebars.push(htmlRecord(userInterface, null, 'showSidebar'));
  }

  showModalDialog(userInterface: HtmlOutput, title: string): void {
    this._recorder.dialogs.push({ ...htmlRecord(userInterface, String(title), 'showModalDialog'), modal: true });
  }

  showModelessDialog(userInterface: HtmlOutput, title: string): void {
    this._recorder.dialogs.push({ ...htmlRecord(userInterface, String(title), 'showModelessDialog'), modal: false });
  }

  alert(...args: unknown[]): unknown {
    const dialog = dialogArgs(args, 'alert');
    const answer = this._recorder._answer(dialog.buttons);
    this._recorder.alerts.push({ ...dialog, answer: answer.button });
    return Button._get(answer.button);
  }

  prompt(...args: unknown[]): PromptResponse {
    const dialog = dialogArgs(args, 'prompt');
    const answer = this._recorder._answer(dialog.buttons);
    this._recorder.prompts.push({ ...dialog, answer: answer.button, responseText: answer.text });
    return new PromptResponse(answer.text, answer.button);
  }
}
