import { startTestApp, type TestApp } from './support/test-app';
import { api, repeatBody } from './support/proposals';

describe('GET /v1/proposals: the review queue an integrator reads', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    as = api(t);
    // Three of Ola's on three dates (new merchants: each waits for review), one of Nora's; one rejected.
    for (const [name, who, n] of [
      ['ola1', 'employee', 1],
      ['ola2', 'employee', 2],
      ['nora', 'colleague', 3],
      ['ola3', 'employee', 4],
    ] as const) {
      const res = await as.post('/v1/proposals', who, repeatBody(n, { merchant: `Vendor ${name}`, thread: null }));
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
      t.clock.advance(1000);
    }
    expect((await as.post(`/v1/review/${ids.ola2}/reject`, 'accountant', { reason: 'not ours' })).status).toBe(200);
  });
  afterAll(async () => t.close());

  const list = async (query: string, who: Parameters<typeof as.get>[1] = 'accountant') => {
    const res = await as.get(`/v1/proposals${query}`, who);
    expect(res.status).toBe(200);
    return res.body as { items: Array<{ id: string; status: string; events: unknown[] }>; nextCursor: string | null };
  };

  it('lists every proposal of the company, oldest submission first, each as GET /proposals/{id} shows it but its postings', async () => {
    const page = await list('');

    expect(page.items.map((p) => p.id)).toEqual([ids.ola1, ids.ola2, ids.nora, ids.ola3]);
    expect(page.nextCursor).toBeNull();
    const one = (await as.get(`/v1/proposals/${ids.ola2}`, 'accountant')).body;
    // The postings (planned or read back) are read one proposal at a time.
    const summary = Object.fromEntries(Object.entries(one).filter(([key]) => !/postings/i.test(key)));
    expect(Object.keys(one).length).toBeGreaterThan(Object.keys(summary).length);
    expect(page.items[1]).toEqual(summary);
  });

  it('filters by status, submitter (any letter case) and accounting dates, all combined', async () => {
    expect((await list('?status=PROPOSED')).items.map((p) => p.id)).toEqual([ids.ola1, ids.nora, ids.ola3]);
    expect((await list('?status=REJECTED')).items.map((p) => p.id)).toEqual([ids.ola2]);
    expect((await list('?submittedBy=NORA@demo.no')).items.map((p) => p.id)).toEqual([ids.nora]);
    // repeatBody(n) is dated n weeks before 2026-11-20: 11-13, 11-06, 10-30, 10-23.
    expect((await list('?dateFrom=2026-10-30&dateTo=2026-11-06')).items.map((p) => p.id)).toEqual([ids.ola2, ids.nora]);
    expect((await list('?submittedBy=ola@demo.no&status=PROPOSED&dateTo=2026-11-06')).items.map((p) => p.id)).toEqual([
      ids.ola3,
    ]);
  });

  it('pages with ?limit= and ?cursor=', async () => {
    const first = await list('?limit=3');
    const second = await list(`?limit=3&cursor=${encodeURIComponent(first.nextCursor as string)}`);

    expect([...first.items, ...second.items].map((p) => p.id)).toEqual([ids.ola1, ids.ola2, ids.nora, ids.ola3]);
    expect(second.nextCursor).toBeNull();
  });

  it("shows an employee only their own, and refuses them a colleague's with permission_denied", async () => {
    expect((await list('', 'employee')).items.map((p) => p.id)).toEqual([ids.ola1, ids.ola2, ids.ola3]);
    expect((await list('?submittedBy=OLA@demo.no', 'employee')).items).toHaveLength(3);
    expect((await list('', 'colleague')).items.map((p) => p.id)).toEqual([ids.nora]);

    const res = await as.get('/v1/proposals?submittedBy=nora@demo.no', 'employee');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
  });

  it('lists nothing of another company', async () => {
    const other = await t.newCompany();
    const res = await api(t, other).get('/v1/proposals', 'accountant');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], nextCursor: null });
  });

  it.each([
    ['?status=pending', 'status'],
    ['?submittedBy=kari', 'submittedBy'],
    ['?dateFrom=2026-02-30', 'dateFrom'],
    ['?dateTo=20261101', 'dateTo'],
    ['?dateFrom=2026-11-02&dateTo=2026-11-01', 'dateTo'],
    ['?limit=0', 'limit'],
    ['?limit=2.5', 'limit'],
    ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['?sort=date', 'sort'],
  ])('refuses %s with 400 validation_failed naming %s', async (query, field) => {
    const res = await as.get(`/v1/proposals${query}`, 'accountant');

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
