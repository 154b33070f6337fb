import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, proposalBody, repeatBody } from './support/proposals';

describe('GET /v1/events (docs/api.md §4, §4.3)', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    as = api(t, await t.newCompany('events'));
  });

  type EventJson = {
    id: string;
    type: string;
    status: string | null;
    proposalId: string | null;
    correlationId: string;
    sequence: number;
  };

  it('lists the pending proposals with ?status=PROPOSED', async () => {
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
    const pending = await as.submit(proposalBody({ merchant: 'Unknown Vendor' }));
    await as.submit(repeatBody(1));
    const rejected = await as.submit(repeatBody(2, { merchant: 'Another Vendor' }));
    await as.post(`/v1/review/${rejected.body.id}/reject`, 'accountant', { reason: 'duplicate' });

    const res = await as.get('/v1/events?status=PROPOSED', 'manager');

    expect(res.status).toBe(200);
    expect(res.body.items.map((e: EventJson) => [e.type, e.proposalId])).toEqual([['Proposed', pending.body.id]]);
    expect(res.body.nextCursor).toBeNull();
  });

  it('gives every field of §4.3, with the identity chain under its spec names', async () => {
    const submitted = await as.submit(proposalBody({ merchant: 'Unknown Vendor' }));

    const [event] = (await as.get(`/v1/events?correlationId=${submitted.body.correlationId}`, 'manager')).body.items;

    expect(Object.keys(event).sort()).toEqual(
      [
        'actor',
        'api_calls',
        'channel',
        'company',
        'confidence',
        'correlationId',
        'data',
        'id',
        'occurredAt',
        'proposalId',
        'provider',
        'sequence',
        'status',
        'type',
      ].sort(),
    );
    expect(event).toMatchObject({
      type: 'Proposed',
      status: 'PROPOSED',
      sequence: 1,
      actor: 'ola@demo.no',
      channel: 'slack',
      confidence: 0,
    });
    expect(event.data).toMatchObject({ amount: '119.00', currency: 'NOK', vatRate: '25' });
  });

  it('pages with limit and cursor, oldest first, without gaps or repeats', async () => {
    for (let i = 0; i < 5; i++) {
      await as.submit(proposalBody({ merchant: `Vendor ${String.fromCharCode(65 + i)}` }));
      t.clock.advance(1000);
    }

    const seen: EventJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await as.get(`/v1/events?type=Proposed&limit=2${query}`, 'manager');
      expect(res.status).toBe(200);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);

    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    await as.submit(proposalBody({ merchant: 'Early Vendor' }));
    t.clock.advance(60_000);
    const from = t.clock.now().toISOString();
    const later = await as.submit(proposalBody({ merchant: 'Later Vendor' }));
    t.clock.advance(60_000);
    const to = t.clock.now().toISOString();
    await as.submit(proposalBody({ merchant: 'Latest Vendor' }));

    const res = await as.get(`/v1/events?from=${from}&to=${to}`, 'manager');

    expect(res.body.items.map((e: EventJson) => e.proposalId)).toEqual([later.body.id]);
  });

  it.each([
    ['an unknown status', 'status=PENDING'],
    ['an unknown type', 'type=Deleted'],
    ['a limit over 200', 'limit=201'],
    ['a limit of 0', 'limit=0'],
    ['a malformed instant', 'from=yesterday'],
    ['an unknown parameter', 'sort=desc'],
    ['a window that ends before it starts', 'from=2026-11-20T10:00:00Z&to=2026-11-20T09:00:00Z'],
    ['a cursor the service did not issue', 'cursor=not-a-cursor'],
  ])('refuses %s with validation_failed', async (_label, query) => {
    expectProblem(await as.get(`/v1/events?${query}`, 'manager'), 400, 'validation_failed');
  });

  it('is for managers and up with monitor: an employee gets 403', async () => {
    expectProblem(await as.get('/v1/events', 'employee'), 403, 'permission_denied');
  });

  it("never shows another company's events", async () => {
    const mine = await as.submit(proposalBody({ merchant: 'Unknown Vendor' }));
    const other = api(t, await t.newCompany('other'));

    expect((await other.get(`/v1/events?correlationId=${mine.body.correlationId}`, 'manager')).body).toEqual({
      items: [],
      nextCursor: null,
    });
  });
});
