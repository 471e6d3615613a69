// HtmlService: HTML outputs read from the built files, and minimal templates with <? ?> scriptlets.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EnumNamespace } from './enums';
import { GasError, GasRuntimeUsageError } from './errors';
import type { ExpandoHolder } from './membrane';
import type { Realm } from './realm';

export const SandboxMode = new EnumNamespace('SandboxMode', ['EMULATED', 'IFRAME', 'NATIVE'] as const);
export const XFrameOptionsMode = new EnumNamespace('XFrameOptionsMode', ['ALLOWALL', 'DEFAULT'] as const);

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** An HtmlOutput: content plus the title and size a sidebar or dialog shows it with. */
export class HtmlOutput {
  static readonly gasName = 'HtmlOutput';
  #content: string;
  #title = '';
  #width: number | null = null;
  #height: number | null = null;
  #faviconUrl: string | null = null;
  readonly #metaTags: Array<{ name: string; content: string }> = [];
  #xFrameOptionsMode: unknown = XFrameOptionsMode._get('DEFAULT');

  constructor(content = '') {
    this.#content = content;
  }

  getContent(): string {
    return this.#content;
  }

  setContent(content: string): HtmlOutput {
    this.#content = String(content);
    return this;
  }

  append(html: string): HtmlOutput {
    this.#content += String(html);
    return this;
  }

  appendUntrusted(text: string): HtmlOutput {
    this.#content += escapeHtml(String(text));
    return this;
  }

  clear(): HtmlOutput {
    this.#content = '';
    return this;
  }

  getTitle(): string {
    return this.#title;
  }

  setTitle(title: string): HtmlOutput {
    this.#title = String(title);
    return this;
  }

  getWidth(): number | null {
    return this.#width;
  }

  setWidth(width: number): HtmlOutput {
    this.#width = Number(width);
    return this;
  }

  getHeight(): number | null {
    return this.#height;
  }

  setHeight(height: number): HtmlOutput {
    this.#height = Number(height);
    return this;
  }

  /** Apps Script serves every output in IFRAME mode now; the argument is accepted and has no effect. */
  setSandboxMode(mode: unknown): HtmlOutput {
    void mode;
    return this;
  }

  getSandboxMode(): unknown {
    return SandboxMode._get('IFRAME');
  }

  setXFrameOptionsMode(mode: unknown): HtmlOutput {
    this.#xFrameOptionsMode = mode;
    return this;
  }

  /** What setXFrameOptionsMode was given, for tests. */
  _xFrameOptionsMode(): unknown {
    return this.#xFrameOptionsMode;
  }

  getFaviconUrl(): string | null {
    return this.#faviconUrl;
  }

  setFaviconUrl(url: string): HtmlOutput {
    this.#faviconUrl = String(url);
    return this;
  }

  addMetaTag(name: string, content: string): HtmlOutput {
    this.#metaTags.push({ name: String(name), content: String(content) });
    return this;
  }

  getMetaTags(): Array<{ name: string; content: string }> {
    return this.#metaTags.map((tag) => ({ ...tag }));
  }
}

type TemplateChunk = { kind: 'text'; text: string } | { kind: 'print'; code: string; raw: boolean } | { kind: 'code'; code: string };

function parseTemplate(source: string): TemplateChunk[] {
  const chunks: TemplateChunk[] = [];
  const scriptlet = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  for (let match = scriptlet.exec(source); match; match = scriptlet.exec(source)) {
    if (match.index > last) chunks.push({ kind: 'text', text: source.slice(last, match.index) });
    const body = match[2] ?? '';
    if (match[1] === '=') chunks.push({ kind: 'print', code: body, raw: false });
    else if (match[1] === '!=') chunks.push({ kind: 'print', code: body, raw: true });
    else chunks.push({ kind: 'code', code: body });
    last = scriptlet.lastIndex;
  }
  if (last < source.length) chunks.push({ kind: 'text', text: source.slice(last) });
  return chunks;
}

/**
 * HtmlTemplate: variables are assigned as properties (`template.name = 'x'`) and evaluate() runs the
 * scriptlets in the script's realm, where the script's own functions are visible.
 */
export class HtmlTemplate implements ExpandoHolder {
  static readonly gasName = 'HtmlTemplate';
  static readonly acceptsExpandos = true;
  readonly _expandos = new Map<string, unknown>();

  constructor(
    readonly _source: string,
    readonly _realm: Realm,
  ) {}

  getRawContent(): string {
    return this._source;
  }

  getCode(): string {
    return this.#compile();
  }

  evaluate(): HtmlOutput {
    const data = new this._realm.Object() as Record<string, unknown>;
    for (const [name, value] of this._expandos) data[name] = value;
    const render = new this._realm.Function('__data', '__print', this.#compile()) as (data: unknown, print: (value: unknown, raw: boolean) => string) => string;
    const print = (value: unknown, raw: boolean): string => (raw ? String(value) : escapeHtml(String(value)));
    return new HtmlOutput(render(data, print));
  }

  #compile(): string {
    const lines = ['var __out = [];', 'with (__data) {'];
    for (const chunk of parseTemplate(this._source)) {
      if (chunk.kind === 'text') lines.push(`__out.push(${JSON.stringify(chunk.text)});`);
      else if (chunk.kind === 'print') lines.push(`__out.push(__print((${chunk.code}), ${chunk.raw}));`);
      else lines.push(chunk.code);
    }
    lines.push('}', "return __out.join('');");
    return lines.join('\n');
  }
}

/** HtmlService as one execution sees it. */
export class HtmlServiceStandIn {
  static readonly gasName = 'HtmlService';
  readonly SandboxMode = SandboxMode;
  readonly XFrameOptionsMode = XFrameOptionsMode;

  constructor(
    readonly _filesDirectory: string | undefined,
    readonly _realm: Realm,
  ) {}

  createHtmlOutput(html?: unknown): HtmlOutput {
    if (html instanceof HtmlTemplate) return html.evaluate();
    return new HtmlOutput(html === undefined || html === null ? '' : String(html));
  }

  createHtmlOutputFromFile(filename: string): HtmlOutput {
    return new HtmlOutput(this.#read(filename));
  }

  createTemplate(html: string): HtmlTemplate {
    return new HtmlTemplate(String(html), this._realm);
  }

  createTemplateFromFile(filename: string): HtmlTemplate {
    return new HtmlTemplate(this.#read(filename), this._realm);
  }

  /** Reads `<files>/<name>.html`; a project file's name has no extension in Apps Script, but one is tolerated. */
  #read(filename: string): string {
    const name = String(filename);
    if (!this._filesDirectory) {
      throw new GasRuntimeUsageError(`HtmlService needs the runtime's "files" option (the folder holding ${name}.html).`, 'HTML_FILES_NOT_CONFIGURED');
    }
    const file = path.join(this._filesDirectory, name.endsWith('.html') ? name : `${name}.html`);
    try {
      return readFileSync(file, 'utf8');
    } catch {
      throw new GasError(`No HTML file named ${name} was found.`);
    }
  }
}
