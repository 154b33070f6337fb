import { ClaimFeed } from './daily-check-runner';
import type { DailyCheckClaim } from './daily-check-runs.port';

const claim = (n: number): DailyCheckClaim => ({
  companyId: `c${n}`,
  day: '2026-11-22',
  attempt: 1,
  provider: 'fiken',
  token: `t${n}`,
});

/** Runs 1…total, handed out `limit` at a time; records each request's limit. */
function source(total: number) {
  let next = 1;
  const requests: number[] = [];
  const take = async (limit: number) => {
    requests.push(limit);
    const claims: DailyCheckClaim[] = [];
    while (claims.length < limit && next <= total) claims.push(claim(next++));
    return claims;
  };
  return { take, requests };
}

describe('ClaimFeed', () => {
  it('hands every claimed run to exactly one of the lanes waiting on it, a batch per round trip', async () => {
    const { take, requests } = source(12);
    const feed = new ClaimFeed(take, 5);
    const seen: string[] = [];
    const lane = async () => {
      for (let c = await feed.next(); c; c = await feed.next()) seen.push(c.companyId);
    };

    await Promise.all([lane(), lane(), lane()]);

    expect(seen.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `c${i + 1}`).sort());
    // 5 + 5 + 2, then one empty claim that ends the feed for every lane.
    expect(requests).toEqual([5, 5, 5, 5]);
  });

  it('lets a failed claim reach the lanes waiting on it, and claims again on the next call', async () => {
    let fail = true;
    const feed = new ClaimFeed(async () => {
      if (fail) throw new Error('database down');
      return [claim(1)];
    }, 3);

    await expect(Promise.all([feed.next(), feed.next()])).rejects.toThrow('database down');
    fail = false;
    expect(await feed.next()).toMatchObject({ companyId: 'c1' });
  });
});
