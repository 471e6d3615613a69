// The pages an audit build has read, kept between its steps on a hidden sheet of their own (one per build).
//
// Why a sheet and not the job store: 500 companies × 100 properties of non-ASCII text are about 2,100 pages
// and several MB of JSON, and the user's properties hold 500 KB in all ("Properties total storage 500kB /
// property store", quotas page), shared with every job and the token; the cache is "not guaranteed to
// persist". The job's own state (which pages are read, about 30 KB) stays in the job store.
//
// Every editor can rewrite a hidden sheet, and what this one holds becomes the audit (its fund's profile and
// property ids included, which a push then writes to): each row is signed by the user whose build it is
// (core/trust), and a row that does not verify stops the build with the sentence to build it again.

import { auditBuildScope, buildPieceText } from '../core/audit/audit-trust';
import type { AuditPageSink } from '../core/audit/build-job';
import { requireSigned, signRecord, type SignatureScope } from '../core/trust/signed-record';
import { snapshotPieces } from './audit-store';
import { ensureSize, insertHiddenSheet } from './own-sheets';
import { writePlainText } from './sheet-io';
import { userHmac } from './user-signing-key';
import { PLAIN_TEXT_FORMAT } from '../core/sheets/cell-safety';

const PREFIX = 'Audit build ';
/** List, page, piece, text, and the row's signature. */
const COLUMNS = 5;

function buildSheetName(buildId: string): string {
  return `${PREFIX}${buildId}`;
}

function buildSheet(buildId: string): GoogleAppsScript.Spreadsheet.Sheet | null {
  return SpreadsheetApp.getActiveSpreadsheet().getSheetByName(buildSheetName(buildId));
}

/** Creates the build's hidden sheet (at start), or finds it again (each step). */
export function openBuildSheet(buildId: string): AuditPageSink {
  let sheet = buildSheet(buildId);
  if (!sheet) {
    sheet = insertHiddenSheet(buildSheetName(buildId), 'Kept by Portfolio Metrics while an audit is being built: removed once it is.');
    // Plain text, so JSON starting with a digit or "=" stays the text it is.
    sheet.getRange(1, 1, sheet.getMaxRows(), COLUMNS).setNumberFormat(PLAIN_TEXT_FORMAT);
  }
  return sinkOn(sheet, auditBuildScope(SpreadsheetApp.getActiveSpreadsheet().getId(), buildId));
}

function sinkOn(sheet: GoogleAppsScript.Spreadsheet.Sheet, scope: SignatureScope): AuditPageSink {
  const hmac = userHmac();
  return {
    put(pages) {
      const rows = pages.flatMap(({ list, page, items }) =>
        snapshotPieces(JSON.stringify(items)).map((piece, index) => {
          const cells = [list, String(page), String(index), piece] as const;
          return [...cells, signRecord(hmac, scope, buildPieceText(...cells))];
        }),
      );
      if (rows.length === 0) return;
      const first = sheet.getLastRow() + 1;
      const last = first + rows.length - 1;
      const had = sheet.getMaxRows();
      ensureSize(sheet, last);
      // Rows just added get the plain-text format the sheet was made with.
      if (last > had) sheet.getRange(had + 1, 1, last - had, COLUMNS).setNumberFormat(PLAIN_TEXT_FORMAT);
      // One setValues per wave: a killed step leaves whole waves, and a wave read again replaces its pages (see read).
      writePlainText(sheet.getRange(first, 1, rows.length, COLUMNS), rows);
    },
    read(lists) {
      const wanted = new Set(lists);
      const last = sheet.getLastRow();
      const pages = new Map<string, Map<number, string[]>>();
      if (last > 0) {
        for (const [list, page, piece, text, signature] of sheet.getRange(1, 1, last, COLUMNS).getValues()) {
          const key = String(list);
          if (!wanted.has(key)) continue;
          requireSigned(hmac, scope, buildPieceText(key, String(page), String(piece), String(text)), signature, {
            what: `What this audit build kept on its hidden sheet "${sheet.getName()}"`,
            remedy: 'Build the audit again.',
          });
          const byPage = pages.get(key) ?? new Map<number, string[]>();
          pages.set(key, byPage);
          // A page's piece 0 starts its copy: a later copy of the same page (read again) replaces the earlier.
          if (Number(piece) === 0) byPage.set(Number(page), []);
          byPage.get(Number(page))?.push(String(text));
        }
      }
      const out: Record<string, unknown[]> = {};
      for (const [key, byPage] of pages) {
        out[key] = [...byPage.keys()].sort((a, b) => a - b).flatMap((page) => JSON.parse(byPage.get(page)!.join('')) as unknown[]);
      }
      return out;
    },
  };
}

/** Removes the build's sheet: a finished build leaves nothing behind. */
export function removeBuildSheet(buildId: string): void {
  const sheet = buildSheet(buildId);
  if (sheet) SpreadsheetApp.getActiveSpreadsheet().deleteSheet(sheet);
}
