// The audit build as a job, over the scripted API: the same reads as loadAuditData, in waves, each page kept in
// the sink once; a failed page stays pending (or pauses the build when refused); the data equals a one-go read.

import {
  auditDataFromSink,
  isAuditBuildComplete,
  newAuditBuildState,
  resumeAuditBuild,
  runAuditBuildStep,
  type AuditBuildState,
  type AuditPageSink,
} from '../../../src/core/audit/build-job';
import {
  client,
  FUND,
  fundData,
  loadSteps,
  page,
  PROFILE,
  PROFILES,
  profilesStep,
  propertiesStep,
  PROPERTY,
  STEP_MARGIN_MS,
  valuesStep,
  optionsStep,
} from './audit-fixtures';

/** The hidden sheet's contract in memory: a page put again replaces the earlier copy. */
function memorySink(): AuditPageSink & { puts: string[] } {
  const pages = new Map<string, Map<number, unknown[]>>();
  const puts: string[] = [];
  return {
    puts,
    put(read) {
      for (const { list, page: n, items } of read) {
        puts.push(`${list}#${n}`);
        const byPage = pages.get(list) ?? new Map<number, unknown[]>();
        byPage.set(n, JSON.parse(JSON.stringify(items)) as unknown[]);
        pages.set(list, byPage);
      }
    },
    read(lists) {
      const out: Record<string, unknown[]> = {};
      for (const list of lists) {
        const byPage = pages.get(list);
        if (byPage) out[list] = [...byPage.keys()].sort((a, b) => a - b).flatMap((n) => byPage.get(n)!);
      }
      return out;
    },
  };
}

function step(state: AuditBuildState, steps: ReturnType<typeof loadSteps>, sink: AuditPageSink, waveSize?: number) {
  const { api, transport, deadline, waits } = client(steps);
  const result = runAuditBuildStep(state, api, { deadline, marginMs: STEP_MARGIN_MS, waitLog: waits, sink, ...(waveSize ? { waveSize } : {}) });
  return { ...result, transport };
}

describe('the audit build job', () => {
  it('reads what loadAuditData reads, each page once, in waves, and gives the same data', () => {
    const sink = memorySink();
    const { state, progress, transport } = step(newAuditBuildState(FUND), loadSteps(), sink);
    transport.assertDone();
    expect(transport.waves).toEqual([2, 5]);
    expect(state.status).toBe('done');
    expect(progress).toMatchObject({ status: 'done', pagesRead: 7, pagesTotal: 7, totalKnown: true });
    expect(new Set(sink.puts).size).toBe(sink.puts.length);
    expect(auditDataFromSink(state, sink)).toEqual(fundData());
  });

  it('stops at a cancel between waves, keeps what it read, and after Resume reads only the pages left', () => {
    const sink = memorySink();
    // Waves of 3 pages: the profiles and properties, then 3 of the 5 values and options; then the cancel is seen.
    const { api, transport, deadline, waits } = client(loadSteps().slice(0, 5));
    const first = runAuditBuildStep(newAuditBuildState(FUND), api, {
      deadline,
      marginMs: STEP_MARGIN_MS,
      waitLog: waits,
      sink,
      waveSize: 3,
      shouldStop: () => sink.puts.length >= 5,
    });
    transport.assertDone();
    expect(first.state.status).toBe('cancelled');
    expect(first.progress).toMatchObject({ pagesRead: 5, pagesTotal: 7 });
    const second = step(resumeAuditBuild(first.state), [optionsStep(PROPERTY.sector), optionsStep(PROPERTY.tags)], sink, 3);
    second.transport.assertDone();
    expect(second.state.status).toBe('done');
    expect(sink.puts).toHaveLength(7);
    expect(auditDataFromSink(second.state, sink)).toEqual(fundData());
  });

  it("reads a list's further pages once page 1 has told how many there are", () => {
    const sink = memorySink();
    const [a, b] = [PROFILES.slice(0, 2), PROFILES.slice(2)];
    const steps = [
      profilesStep(page('portfolio_company_profiles', a, 1, 2, 3)),
      propertiesStep(),
      profilesStep(page('portfolio_company_profiles', b, 2, 2, 3), 2),
      ...loadSteps().slice(2),
    ];
    const { state, transport } = step(newAuditBuildState(FUND), steps, sink);
    transport.assertDone();
    // Page 2 of the profiles goes alone (the transport counts only concurrent waves), before the values are planned.
    expect(transport.sent).toHaveLength(8);
    expect(transport.waves).toEqual([2, 5]);
    expect(state.lists[0]).toEqual({ k: 'profiles', p: '11' });
    expect(auditDataFromSink(state, sink)).toEqual(fundData());
  });

  it('leaves a page the API failed (5xx) pending for the next step, and pauses on a refusal with the reason', () => {
    const sink = memorySink();
    const failing = loadSteps().map((s) => (s.match === valuesStep(PROFILE.bluebird).match ? { ...s, reply: { status: 503, body: {} } } : s));
    // The client retries a GET's 503 six times by its policy: a refusal scripted for every attempt.
    const retries = Array.from({ length: 6 }, () => ({ match: valuesStep(PROFILE.bluebird).match, reply: { status: 503, body: {} } }));
    const { state } = step(newAuditBuildState(FUND), [...failing, ...retries], sink);
    expect([state.status, state.problem]).toEqual(['running', expect.stringMatching(/503/)]);
    expect(isAuditBuildComplete(state)).toBe(false);
    expect(state.lists.find((list) => list.k === `values:${PROFILE.bluebird}`)).toEqual({ k: `values:${PROFILE.bluebird}`, p: '' });
    expect(state.problem).toBeDefined();

    const refused = step(
      state,
      [{ match: valuesStep(PROFILE.bluebird).match, reply: { status: 404, body: { errors: [{ type: 'not_found', message: 'Not found' }] } } }],
      sink,
    );
    expect(refused.state.status).toBe('paused');
    expect(refused.state.problem).toMatch(/^The API refused a read of the audit: /);
    const resumed = resumeAuditBuild(refused.state);
    const done = step(resumed, [valuesStep(PROFILE.bluebird)], sink);
    expect(done.state.status).toBe('done');
    expect(auditDataFromSink(done.state, sink)).toEqual(fundData());
  });
});
