import { createGasRuntime, ServerCallError } from '../index';
import { fixture, FIXTURES } from './support/fixtures';

function runtime() {
  return createGasRuntime({ code: fixture('addon'), files: FIXTURES });
}

describe('callServer (google.script.run)', () => {
  it('calls a top-level function with copied arguments and returns its result', () => {
    const rt = runtime();
    rt.properties.user('owner@example.com').setProperty('token', 't');
    expect(rt.callServer('getSettings')).toEqual({ ok: true, value: { tokenSet: true } });
    expect(rt.callServer('echo', [{ a: [1, undefined, 'x'], b: undefined, c: null }])).toEqual({ a: [1, null, 'x'], c: null });
    expect(rt.executions[0]).toMatchObject({ kind: 'server-call', authMode: 'FULL' });
  });

  it('hides functions whose name ends in _, and globals that are not functions', () => {
    const rt = runtime();
    expect(() => rt.callServer('helper_')).toThrow(new ServerCallError('google.script.run.helper_ is not a function'));
    expect(() => rt.callServer('NOT_A_FUNCTION')).toThrow(new ServerCallError('google.script.run.NOT_A_FUNCTION is not a function'));
    expect(() => rt.callServer('SpreadsheetApp')).toThrow(ServerCallError);
    expect(rt.executions).toHaveLength(0);
  });

  it('refuses a Date or a function among the arguments, as the page would', () => {
    const rt = runtime();
    expect(() => rt.callServer('echo', [new Date()])).toThrow(new ServerCallError('Failed due to illegal value in property: 0'));
    expect(() => rt.callServer('echo', [{ nested: { when: new Date() } }])).toThrow(new ServerCallError('Failed due to illegal value in property: when'));
    expect(() => rt.callServer('echo', [() => 1])).toThrow(ServerCallError);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => rt.callServer('echo', [circular])).toThrow(ServerCallError);
  });

  it('passes arrays, objects and primitives as the script expects them', () => {
    expect(runtime().callServer('describeArgs', [[1], { a: 1 }, 'x', 2, true, null])).toEqual(['array', 'object', 'string', 'number', 'boolean', 'null']);
  });

  it('turns a result holding a Date into null', () => {
    expect(runtime().callServer('serverDate')).toBeNull();
  });

  it('surfaces a thrown error as its message only', () => {
    let caught: unknown;
    try {
      runtime().callServer('failing');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ServerCallError);
    expect((caught as ServerCallError).message).toBe('The token was refused.');
    expect((caught as ServerCallError).cause).toBeUndefined();
  });
});
