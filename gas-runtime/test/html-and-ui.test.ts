import { createGasRuntime } from '../index';
import { fixture, FIXTURES } from './support/fixtures';

describe('HtmlService and the UI', () => {
  it('records the add-on menu onOpen adds, replacing it on the next open', () => {
    const rt = createGasRuntime({ code: fixture('addon'), files: FIXTURES });
    rt.run('onOpen', [], { authMode: 'NONE' });
    rt.run('onInstall', [], { authMode: 'FULL' });
    expect(rt.ui.menus).toEqual([
      { caption: null, addon: true, entries: [{ kind: 'item', caption: 'Open sidebar', functionName: 'showSidebar' }, { kind: 'separator' }] },
    ]);
    expect(rt.ui.menuFunction('Open sidebar')).toBe('showSidebar');
  });

  it('shows a sidebar read from the HTML files folder, with its title', () => {
    const rt = createGasRuntime({ code: fixture('addon'), files: FIXTURES });
    rt.run(rt.ui.menuFunction('Open sidebar') ?? 'showSidebar');
    expect(rt.ui.lastSidebar()).toMatchObject({ title: 'Metrics', html: expect.stringContaining('<h1>Metrics sidebar</h1>') as unknown as string });
  });

  it('fails as Apps Script does for a missing HTML file, and loudly without the files option', () => {
    const withFiles = createGasRuntime({ code: 'function show() { HtmlService.createHtmlOutputFromFile("Nope"); }', files: FIXTURES });
    expect(() => withFiles.run('show')).toThrow('No HTML file named Nope was found.');
    const withoutFiles = createGasRuntime({ code: 'function show() { try { HtmlService.createHtmlOutputFromFile("Sidebar"); } catch (e) {} }' });
    expect(() => withoutFiles.run('show')).toThrow(expect.objectContaining({ code: 'HTML_FILES_NOT_CONFIGURED' }) as unknown as Error);
  });

  it('evaluates templates with escaped and raw printing scriptlets', () => {
    const rt = createGasRuntime({ code: fixture('addon'), files: FIXTURES });
    rt.run('showTemplate');
    expect(rt.ui.dialogs[0]).toMatchObject({ title: 'Hello', modal: true, width: 300 });
    expect(rt.ui.dialogs[0]?.html).toContain('<p>Hello &lt;Ann&gt;, raw <i>ok</i></p>');
    expect(rt.ui.dialogs[0]?.html).toContain('<li>a</li><li>b</li>');
  });

  it('answers alerts and prompts with queued buttons', () => {
    const rt = createGasRuntime({
      code: `function ask() {
        const ui = SpreadsheetApp.getUi();
        const first = ui.alert('Sure?', 'Delete it?', ui.ButtonSet.YES_NO);
        const reply = ui.prompt('Name?');
        return [String(first), first === ui.Button.NO, reply.getResponseText(), String(reply.getSelectedButton())];
      }`,
    });
    rt.ui.queueAnswer('NO');
    rt.ui.queueAnswer('OK', 'Ann');
    expect(rt.run('ask')).toEqual(['NO', true, 'Ann', 'OK']);
    expect(rt.ui.alerts[0]).toMatchObject({ title: 'Sure?', prompt: 'Delete it?', buttons: 'YES_NO', answer: 'NO' });
  });

  it('records toasts', () => {
    const rt = createGasRuntime({ code: 'function t() { SpreadsheetApp.getActive().toast("Saved", "Metrics", 3); }' });
    rt.run('t');
    expect(rt.ui.toasts).toEqual([{ message: 'Saved', title: 'Metrics', timeoutSeconds: 3 }]);
  });
});
