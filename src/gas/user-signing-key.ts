// The current user's signing key, for core/trust: records the add-in keeps in the document are signed with it,
// so an editor (who cannot read another user's properties) cannot forge or alter one. A secret like the token:
// user properties only; never in a cell, a cache, a log, an error or the page.

import type { Hmac } from '../core/trust/signed-record';

/** Documented in SECURITY.md; created on first use. */
const SIGNING_KEY = 'METRICS_SIGNING_KEY';
const LOCK_WAIT_MS = 5000;

/** Two random (version 4) UUIDs: 244 random bits. */
function newKey(): string {
  return `${Utilities.getUuid()}${Utilities.getUuid()}`.replace(/-/g, '');
}

function signingKey(): string {
  const props = PropertiesService.getUserProperties();
  const existing = props.getProperty(SIGNING_KEY);
  if (existing) return existing;
  // Two first uses at once must not each keep a key: the one not stored would sign records that never verify.
  const lock = LockService.getUserLock();
  lock.waitLock(LOCK_WAIT_MS);
  try {
    const stored = props.getProperty(SIGNING_KEY);
    if (stored) return stored;
    const key = newKey();
    props.setProperty(SIGNING_KEY, key);
    return key;
  } finally {
    lock.releaseLock();
  }
}

/**
 * HMAC-SHA256 under the current user's key (in a custom function that would be the owner's: do not sign or
 * verify there). The key is read once, when first needed.
 */
export function userHmac(): Hmac {
  let key: string | undefined;
  return (text) => Utilities.base64Encode(Utilities.computeHmacSha256Signature(text, (key ??= signingKey()), Utilities.Charset.UTF_8));
}

/**
 * HMAC under a key already stored, never creating one: from `props` (the user properties an execution read in one
 * call) or the store; null without a key. The one signing call a custom function may make: whoever's properties
 * Apps Script hands it, it only checks whether they signed a record (gas/shared-drive-connection.ts).
 */
export function existingUserHmac(props?: Readonly<Record<string, string>>): Hmac | null {
  const key = props ? props[SIGNING_KEY] : PropertiesService.getUserProperties().getProperty(SIGNING_KEY);
  if (!key) return null;
  return (text) => Utilities.base64Encode(Utilities.computeHmacSha256Signature(text, key, Utilities.Charset.UTF_8));
}
