// npm start: the emulator with demo data, and a local page with a spreadsheet grid beside the real built
// sidebar, whose google.script.run calls reach the built dist/Code.js in the Node runtime for Apps Script.

import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulatorProcess } from '../emulator/testing';
import { Workbench } from './workbench';
import { registerGridRoutes } from './grid-routes';

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    'time-zone': { type: 'string', default: 'America/New_York' },
    'preset-token': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (flags.help) {
  console.log(`npm start -- [--port 8080] [--time-zone America/New_York] [--preset-token]
  --port N           port of the page on 127.0.0.1, or the next free one after it (0 picks any free one)
  --time-zone TZ     the spreadsheet's time zone
  --preset-token     store the emulator's token in the settings (otherwise paste it in the sidebar)`);
  process.exit(0);
}

/** Ports tried after the one asked for, before giving up: a few other workbenches or servers, not a scan. */
const NEXT_PORTS = 20;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * The README's first step is "open the address npm start prints": a port another program holds must not end it,
 * so the next free one is taken (and printed). Null when none of them is free.
 */
async function freePortFrom(asked: number): Promise<number | null> {
  if (asked === 0) return 0;
  for (let port = asked; port <= Math.min(asked + NEXT_PORTS, 65_535); port += 1) {
    if (await isFree(port)) return port;
  }
  return null;
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess();
  const workbench = new Workbench({
    codePath: path.join(DIST, 'Code.js'),
    distDir: DIST,
    apiBaseUrl: emulator.url,
    companyId: emulator.companyId,
    timeZone: flags['time-zone'],
    token: flags['preset-token'] ? emulator.token : undefined,
  });

  const page = readFileSync(path.join(__dirname, 'page.html'), 'utf8')
    .replace('{{TOKEN}}', emulator.token)
    .replace('{{COMPANY}}', emulator.companyId)
    .replace('{{EMULATOR}}', emulator.url);
  const shim = readFileSync(path.join(__dirname, 'script-run-shim.js'), 'utf8');
  // google.script.run goes first, before the sidebar's own script uses it.
  const withShim = (html: string): string => html.replace('<head>', () => `<head><script>${shim}</script>`);

  const app = Fastify();
  app.get('/', (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  // Without `shown`, the sidebar as "Open sidebar" shows it; with it, a sidebar a menu item showed (its tab script included).
  app.get<{ Querystring: { shown?: string } }>('/sidebar', (request, reply) => {
    const shown = request.query.shown;
    const html = shown === undefined ? readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8') : workbench.shownSidebarHtml(Number(shown));
    if (html === undefined)
      return reply.status(404).type('text/plain; charset=utf-8').send(`No sidebar number ${shown} was shown. Use a button of the add-on menu to show one.`);
    return reply.type('text/html; charset=utf-8').send(withShim(html));
  });
  app.post<{ Params: { name: string }; Body: unknown[] }>('/rpc/:name', (request) =>
    workbench.callServer(request.params.name, Array.isArray(request.body) ? request.body : []),
  );
  app.get<{ Querystring: { sheet?: string } }>('/api/grid', (request) => workbench.view(request.query.sheet));
  // Read-only: the time-driven triggers the add-in made (a scheduled refresh), as Apps Script's triggers page lists them.
  app.get('/api/triggers', () =>
    workbench.runtime.triggers.list().map((t) => ({ uniqueId: t.uniqueId, handlerFunction: t.handlerFunction, owner: t.owner, documentId: t.documentId })),
  );
  app.post<{ Body: { sheet: string; a1: string; input: string } }>('/api/cell', async (request) => {
    await workbench.enter(request.body.sheet, request.body.a1, request.body.input);
    return workbench.view(request.body.sheet);
  });
  app.post<{ Body: { sheet: string; a1: string; text: string } }>('/api/paste', async (request) => {
    await workbench.paste(request.body.sheet, request.body.a1, request.body.text);
    return workbench.view(request.body.sheet);
  });
  app.post<{ Body: { sheet: string; a1: string } }>('/api/select', (request) => {
    workbench.select(request.body.sheet, request.body.a1);
    return workbench.view(request.body.sheet);
  });
  app.post<{ Body: { functionName: string } }>('/api/menu', async (request) => {
    const sidebar = await workbench.runMenuItem(request.body.functionName);
    return { view: workbench.view(), sidebar };
  });
  // Time moved forward for the add-in and the emulator together (Workbench.advanceClock): a test skips a wait it has seen begin.
  app.post<{ Body: { advanceMs: number } }>('/api/clock', (request) => {
    workbench.advanceClock(Number(request.body?.advanceMs));
    return { advancedMs: Number(request.body.advanceMs) };
  });
  registerGridRoutes(app, workbench);
  app.setErrorHandler((error, _request, reply) => {
    void reply.status(400).send({ error: error instanceof Error ? error.message : String(error) });
  });

  const asked = Number(flags.port);
  const port = await freePortFrom(asked);
  let address: string;
  try {
    // A port found free can be taken by another program before this listens: that is the in-use sentence too.
    if (port === null) throw Object.assign(new Error('in use'), { code: 'EADDRINUSE' });
    address = await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    // The emulator child started first; left running it would hold its port and outlive us.
    await workbench.runtime.close();
    await emulator.stop();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const upTo = Math.min(asked + NEXT_PORTS, 65_535);
      console.error(
        port === null
          ? `Ports ${asked} to ${upTo} on 127.0.0.1 are in use by other programs: stop one, or start the workbench on another port with npm start -- --port ${upTo + 1}.`
          : `Port ${port} on 127.0.0.1 was free a moment ago and is now in use by another program: run npm start again.`,
      );
      process.exit(1);
    }
    throw error;
  }
  if (port !== asked) console.log(`Port ${asked} on 127.0.0.1 is in use by another program, so the workbench took ${port}.`);
  console.log(`Workbench on ${address} (emulator ${emulator.url}, token ${emulator.token}, company ${emulator.companyId})`);

  const stop = async (): Promise<void> => {
    await app.close();
    await workbench.runtime.close();
    await emulator.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
