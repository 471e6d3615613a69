// What the server stores or sends to the sidebar survives JSON: no Dates, no class instances.

import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { parseSnapshot, serializeSnapshot } from '../../../src/core/audit/snapshot';
import type { AuditData, AuditPushProgress, AuditPushReport, AuditPushState, AuditSchema, AuditSnapshot, AuditSummary } from '../../../src/core/audit/types';
import type { Json } from '../../../src/shared/rpc';
import { client, edit, fundData, fundModel, fundSchema, preparePush, PROFILE, PROPERTY, putStep, readBack, updated } from './audit-fixtures';

describe('what crosses google.script.run or is stored', () => {
  it('comes back equal through JSON', () => {
    const data = fundData();
    const model = fundModel();
    const values = readBack(model.values);
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    const { state, progress } = client([putStep(updated)]).step(preparePush(values, model, fundSchema(data)));
    const report = buildAuditPushReport(state);
    // Compile-time: each record is assignable to the RPC layer's Json type.
    const json: Json[] = [
      data as AuditData,
      fundSchema(data) as AuditSchema,
      model.summary as AuditSummary,
      model.snapshot as AuditSnapshot,
      state as AuditPushState,
      progress as AuditPushProgress,
      report as AuditPushReport,
    ];
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('reads a stored snapshot back, and refuses text that is not one', () => {
    const { snapshot } = fundModel();
    expect(parseSnapshot(serializeSnapshot(snapshot))).toEqual(snapshot);
    expect(() => parseSnapshot('{"v":1}')).toThrow('not in a form this version of the add-in reads');
    expect(() => parseSnapshot('not json')).toThrow('could not be read');
    expect(() => parseSnapshot(JSON.stringify({ ...snapshot, rows: ['a|b'] }))).toThrow('not in a form');
  });
});
