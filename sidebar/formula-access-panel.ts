// Settings › Formula access: which companies formulas in this spreadsheet may read. Only the owner's
// list counts (formulas read the owner's properties), so a known non-owner is told so instead; in a Shared Drive,
// the list of the person who connected the file.

import { busy, byId, el, markInvalid, say } from './dom';
import type { Outcome } from './outcome';
import { server } from './server';
import type { FormulaAccess, RpcResult } from '../src/shared/rpc';

export function mountFormulaAccess(defaultCompanyId: () => string): void {
  const section = byId<HTMLElement>('formula-access');
  const hint = byId<HTMLElement>('formula-access-hint');
  const list = byId<HTMLUListElement>('formula-access-list');
  const addButton = byId<HTMLButtonElement>('formula-access-add');
  const status = byId<HTMLElement>('formula-access-status');
  let current: string[] = [];

  function show(access: FormulaAccess): void {
    current = access.companyIds;
    list.replaceChildren();
    // In a Shared Drive (no owner) the person who connected the file decides, and the server words the line.
    if (access.sharedDrive) hint.textContent = access.sharedDrive.note;
    if (access.sharedDrive ? !access.sharedDrive.callerDecides : access.isOwner === false) {
      if (!access.sharedDrive)
        hint.textContent =
          "Only the spreadsheet's owner decides which companies formulas here may read, in their own sidebar. To use your own connection and list, make a copy of the spreadsheet (File › Make a copy).";
      addButton.hidden = true;
      return;
    }
    if (access.isOwner === null && !access.sharedDrive) {
      hint.textContent =
        "Formulas in this spreadsheet may read only these companies' data (a fund covers its portfolio companies). This list counts only if you own the spreadsheet: formulas read the owner's list.";
    }
    addButton.hidden = false;
    if (current.length === 0) list.append(el('li', {}, 'No company yet: formulas here read no data.'));
    for (const id of current) {
      const remove = el('button', { type: 'button', 'aria-label': `Remove company ${id}` }, 'Remove');
      remove.addEventListener('click', () =>
        save(
          current.filter((other) => other !== id),
          `Formulas here no longer read company ${id}.`,
        ),
      );
      list.append(el('li', {}, el('code', {}, id), ' ', remove));
    }
  }

  function save(companyIds: string[], done: string): void {
    void busy(section, status, 'Saving…', async (): Promise<Outcome> => {
      const result: RpcResult<FormulaAccess> = await server.setFormulaAccess(companyIds);
      if (!result.ok) return { line: result.error, tone: 'error' };
      show(result.value);
      return { line: done, tone: 'success' };
    });
  }

  addButton.addEventListener('click', () => {
    const id = defaultCompanyId();
    if (!id) {
      say(status, 'Enter a default company id above first.', 'error');
      // The sentence is about the Default company id field: tied to it, and the focus taken there.
      const field = byId<HTMLInputElement>('company-id');
      markInvalid(field, 'Enter a default company id above first.');
      field.focus();
      return;
    }
    save([...current, id], `Formulas here may now read company ${id}.`);
  });

  void busy(section, status, 'Loading…', async () => {
    const result = await server.getFormulaAccess();
    if (!result.ok) return say(status, result.error, 'error');
    show(result.value);
    say(status, '');
  });
}
