import { acceptedKeys, currentKey, ROTATION_GRACE_MS } from './key-rotation';

const at = (iso: string) => new Date(iso);
const key = (kid: string, activatedAt: string) => ({ kid, activatedAt: at(activatedAt) });
const kids = (keys: Array<{ kid: string }>) => keys.map((k) => k.kid);

describe('gateway key rotation rules', () => {
  const q3 = key('q3', '2026-07-01T00:00:00Z');
  const q4 = key('q4', '2026-10-01T00:00:00Z');
  const q1 = key('q1', '2027-01-01T00:00:00Z');

  it('accepts a single activated key forever', () => {
    expect(kids(acceptedKeys([q3], at('2030-01-01T00:00:00Z')))).toEqual(['q3']);
  });

  it('counts a key without activatedAt as activated at the epoch', () => {
    const legacy = { kid: 'legacy', activatedAt: new Date(0) };
    expect(kids(acceptedKeys([legacy], at('2026-01-01T00:00:00Z')))).toEqual(['legacy']);
  });

  it('does not accept a key before its activatedAt', () => {
    expect(kids(acceptedKeys([q3, q4], at('2026-09-30T23:59:59Z')))).toEqual(['q3']);
  });

  it('keeps the old key for 24 h after its successor is activated, then drops it', () => {
    const successor = q4.activatedAt.getTime();
    expect(kids(acceptedKeys([q3, q4], new Date(successor + ROTATION_GRACE_MS - 60_000)))).toEqual(['q3', 'q4']);
    expect(kids(acceptedKeys([q3, q4], new Date(successor + ROTATION_GRACE_MS - 1)))).toEqual(['q3', 'q4']);
    expect(kids(acceptedKeys([q3, q4], new Date(successor + ROTATION_GRACE_MS)))).toEqual(['q4']);
    expect(kids(acceptedKeys([q3, q4], new Date(successor + ROTATION_GRACE_MS + 60_000)))).toEqual(['q4']);
  });

  it('measures the grace from the next activated key, not from a future one', () => {
    // q1 is not active yet: q4 keeps being accepted whatever q1 says.
    expect(kids(acceptedKeys([q3, q4, q1], at('2026-12-31T00:00:00Z')))).toEqual(['q4']);
  });

  it('does not depend on the order of the document', () => {
    const now = at('2026-10-01T12:00:00Z');
    expect(kids(acceptedKeys([q1, q4, q3], now))).toEqual(kids(acceptedKeys([q3, q4, q1], now)));
  });

  it('accepts nothing from an empty document', () => {
    expect(acceptedKeys([], new Date())).toEqual([]);
  });

  it('picks the newest activated key as current', () => {
    expect(currentKey([q3, q4, q1], at('2026-10-02T00:00:00Z'))?.kid).toBe('q4');
    expect(currentKey([q3, q4, q1], at('2027-01-01T00:00:00Z'))?.kid).toBe('q1');
    expect(currentKey([q1], at('2026-01-01T00:00:00Z'))).toBeUndefined();
  });
});
