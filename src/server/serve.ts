// The one wrapper every sidebar function goes through: ids checked, then the body, failures as data.

import { userSentence } from '../core/errors';
import { failureKind } from '../core/log/support-log';
import { consoleSupportLog } from '../gas/support-log';
import { checkPageIds } from '../core/validate/page-ids';
import type { RpcResult } from '../shared/rpc';

/**
 * A sidebar function from its parameters' names (one each: the compiler refuses a missing one), which checkPageIds
 * judges (`exportId` is an id, `sheetName` is not), and its body. Failures, the id checks' included, come back as
 * data the page renders, not as exceptions that lose everything but a message.
 */
export function serve<P extends unknown[], R>(names: { readonly [K in keyof P]: string }, body: (...args: P) => R): (...args: P) => RpcResult<R> {
  return (...args: P) => {
    try {
      return { ok: true, value: body(...(checkPageIds(names as readonly string[], args) as P)) };
    } catch (error) {
      // The kind only: the sentence may quote what the person typed or a cell.
      consoleSupportLog.write({ kind: 'refusal', place: 'sidebar', failure: failureKind(error) });
      return { ok: false, error: userSentence(error) };
    }
  };
}
