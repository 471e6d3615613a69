// A google.script.run call that fails with the multi-account signature (issuetracker.google.com/issues/69270374)
// gets the known way out, never the raw message; other failures keep their message.

import { MULTI_ACCOUNT_ADVICE, explainServerFailure } from '../../sidebar/server-failure';

function scriptError(message: string): Error {
  const error = new Error(message);
  error.name = 'ScriptError';
  return error;
}

describe('explainServerFailure', () => {
  it.each([
    ['a ScriptError "Authorization is required to perform that action."', scriptError('Authorization is required to perform that action.')],
    ['the text "ScriptError: Authorization is required to perform that action."', 'ScriptError: Authorization is required to perform that action.'],
    ['the British wording', scriptError('Authorisation is required to perform that action.')],
    ['a storage PERMISSION_DENIED', scriptError("We're sorry, a server error occurred while reading from storage. Error code PERMISSION_DENIED.")],
    ['a bare PERMISSION_DENIED', new Error('PERMISSION_DENIED')],
    ['an object with a message', { message: 'Authorization is required to perform that action.' }],
  ])('gives the way out for %s', (_what, error) => {
    const sentence = explainServerFailure(error);
    expect(sentence).toBe(MULTI_ACCOUNT_ADVICE);
    expect(sentence).toMatch(/Sign out of the other Google accounts/);
    expect(sentence).toMatch(/browser profile/);
    expect(sentence).not.toMatch(/PERMISSION_DENIED|Authori[sz]ation is required/);
  });

  it.each([
    [new Error('NetworkError: Connection failure due to HTTP 0'), 'NetworkError: Connection failure due to HTTP 0'],
    [scriptError('Exceeded maximum execution time'), 'Exceeded maximum execution time'],
    ['Something else went wrong.', 'Something else went wrong.'],
  ])('keeps the message of another failure: %p', (error, expected) => {
    expect(explainServerFailure(error)).toBe(expected);
  });
});

describe("the page's promise wrapper over google.script.run", () => {
  afterEach(() => {
    delete (globalThis as { google?: unknown }).google;
  });

  it('rejects a multi-account failure with the way out, for any server function', async () => {
    // google.script.run as the page sees it: the failure handler receives Google's ScriptError.
    const runner = {
      withSuccessHandler() {
        return runner;
      },
      withFailureHandler(handler: (error: Error) => void) {
        return { ...runner, getSettings: () => handler(scriptError('Authorization is required to perform that action.')) };
      },
    };
    (globalThis as { google?: unknown }).google = { script: { run: runner } };
    const { server } = await import('../../sidebar/server');
    await expect(server.getSettings()).rejects.toThrow(MULTI_ACCOUNT_ADVICE);
  });
});
