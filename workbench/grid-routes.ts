// The grid's routes: the sheet's shape, its cells in pages, and actions that answer with the shape only
// (never the whole grid, which for 20,000 rows made one shift-click take seconds).

import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cellPage, firstShownCell, growSheet, MAX_PASTE_BYTES, sheetShape } from './grid';
import type { Workbench } from './workbench';

export function registerGridRoutes(app: FastifyInstance, workbench: Workbench): void {
  const script = readFileSync(path.join(__dirname, 'grid-page.js'), 'utf8');
  app.get('/grid.js', (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  app.get<{ Querystring: { sheet?: string } }>('/api/grid/sheet', (request) => sheetShape(workbench, request.query.sheet));
  app.get<{ Querystring: { sheet: string; row: string; count: string } }>('/api/grid/cells', (request) =>
    cellPage(workbench, request.query.sheet, Number(request.query.row), Number(request.query.count)),
  );
  // Without a1 (a sheet's tab): its top-left cell that is shown.
  app.post<{ Body: { sheet: string; a1?: string } }>('/api/grid/select', (request) => {
    workbench.select(request.body.sheet, request.body.a1 ?? firstShownCell(workbench, request.body.sheet));
    return sheetShape(workbench, request.body.sheet);
  });
  // Entering a formula runs it as a recalculation (concurrent executions): answer once its value is in the grid.
  app.post<{ Body: { sheet: string; a1: string; input: string } }>('/api/grid/cell', async (request) => {
    await workbench.enter(request.body.sheet, request.body.a1, request.body.input);
    return sheetShape(workbench, request.body.sheet);
  });
  // Entries typed one after another, sent together (see Workbench.enterEach); answers with the last one's sheet.
  app.post<{ Body: { entries: Array<{ sheet: string; a1: string; input: string }> } }>(
    '/api/grid/entries',
    { bodyLimit: MAX_PASTE_BYTES },
    async (request, reply) => {
      const entries = request.body.entries;
      if (!Array.isArray(entries) || entries.length === 0) return reply.code(400).send({ error: 'No entries were sent: type into a cell and press Enter.' });
      await workbench.enterEach(entries);
      return sheetShape(workbench, entries[entries.length - 1]!.sheet);
    },
  );
  app.post<{ Body: { sheet: string; a1: string; text: string } }>('/api/grid/paste', { bodyLimit: MAX_PASTE_BYTES }, async (request) => {
    await workbench.paste(request.body.sheet, request.body.a1, request.body.text);
    return sheetShape(workbench, request.body.sheet);
  });
  // Delete or Backspace on a selection: its cells in hidden rows and columns are kept (see Workbench.clear).
  app.post<{ Body: { sheet: string; a1: string } }>('/api/grid/clear', async (request) => {
    await workbench.clear(request.body.sheet, request.body.a1);
    return sheetShape(workbench, request.body.sheet);
  });
  app.post<{ Body: { sheet: string; rows?: number; columns?: number } }>('/api/grid/grow', (request) => {
    growSheet(workbench, request.body.sheet, request.body.rows ?? 0, request.body.columns ?? 0);
    return sheetShape(workbench, request.body.sheet);
  });
  app.post<{ Body: { functionName: string } }>('/api/grid/menu', async (request) => {
    const sidebar = await workbench.runMenuItem(request.body.functionName);
    return { shape: sheetShape(workbench), sidebar };
  });
}
