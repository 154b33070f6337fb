/**
 * Which gateway signing keys are accepted at a given instant (docs/api.md §2, key rotation).
 *
 * - a key whose `activatedAt` lies in the future is not accepted yet;
 * - the newest activated key is current;
 * - an older key stays accepted until its successor's `activatedAt` + 24 h (the grace period),
 *   where its successor is the next key, in activation order, that has itself been activated;
 * - a key that is no longer in the document is simply absent: revoked at once.
 * A key without `activatedAt` counts as activated at the epoch.
 */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export interface RotatingKey {
  kid: string;
  activatedAt: Date;
}

export function acceptedKeys<K extends RotatingKey>(keys: readonly K[], now: Date): K[] {
  const activated = keys
    .filter((k) => k.activatedAt.getTime() <= now.getTime())
    .sort((a, b) => a.activatedAt.getTime() - b.activatedAt.getTime());
  return activated.filter((key, index) => {
    const successor = activated.slice(index + 1).find((k) => k.activatedAt.getTime() > key.activatedAt.getTime());
    return successor === undefined || now.getTime() < successor.activatedAt.getTime() + ROTATION_GRACE_MS;
  });
}

/** The key to sign new tokens with: the newest activated one. */
export function currentKey<K extends RotatingKey>(keys: readonly K[], now: Date): K | undefined {
  const accepted = acceptedKeys(keys, now);
  return accepted[accepted.length - 1];
}
