import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, proposalBody, repeatBody } from './support/proposals';

/**
 * Separation of duties (docs/security.md): no one's expense is booked on the strength of a rule
 * only they stand behind.
 */
describe('separation of duties over HTTP', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;
  const spotify = { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    as = api(t, await t.newCompany('sod'));
  });

  it('does not auto-approve an accountant’s own NOK 99 000 expense from the pattern she just wrote', async () => {
    // The bypass as found: the rule is verified by default, and scored 0.90 for its writer too.
    const rule = await as.post('/v1/patterns', 'accountant', spotify);
    expect(rule.status).toBe(201);

    const own = await as.submit(proposalBody({ amount: '99000.00' }), 'accountant');

    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended', executeAfter: null });
    expect(own.body.confidence).toBeLessThan(0.9);
    expect(own.body.reasons).toContain(
      'separation of duties: kari@demo.no wrote the pattern and submitted this proposal, so a second person must approve it',
    );
    expect(own.body.events.map((e: { type: string }) => e.type)).toEqual(['Proposed']);
    expect((await as.outbox()).map((m) => [m.target, m.kind])).toEqual([['review', 'proposal_needs_review']]);
  });

  it('holds at any amount, and for her alone: an employee’s expense from the same rule auto-approves', async () => {
    await as.post('/v1/patterns', 'accountant', spotify);

    const own = await as.submit(proposalBody(), 'accountant');
    const employees = await as.submit(repeatBody(1), 'employee');

    expect(own.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });
    expect(own.body.reasons).toHaveLength(3);
    expect(employees.body).toMatchObject({ status: 'APPROVED', route: 'auto_approve' });
  });

  it('takes a second person to approve it; her approval of her own proposal is refused', async () => {
    await as.post('/v1/patterns', 'accountant', spotify);
    const own = await as.submit(proposalBody(), 'accountant');

    expectProblem(await as.post(`/v1/review/${own.body.id}/approve`, 'accountant'), 403, 'permission_denied');
    const approved = await as.post(`/v1/review/${own.body.id}/approve`, 'secondAccountant');

    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('APPROVED');
    const [pattern] = (await as.get('/v1/patterns', 'accountant')).body.items;
    expect(pattern).toMatchObject({
      writtenBy: 'kari@demo.no',
      lastChangedBy: null,
      confirmedBy: ['per@demo.no', 'kari@demo.no'],
      approvals: 1,
    });
    // Confirmed by someone else now, but still her own rule: her next one waits for review too.
    expect((await as.submit(repeatBody(1), 'accountant')).body.status).toBe('PROPOSED');
  });

  it('holds for whoever last changed the pattern', async () => {
    const rule = await as.post('/v1/patterns', 'secondAccountant', spotify);
    await as.put(`/v1/patterns/${rule.body.id}`, 'accountant', { merchantName: 'Spotify' });

    const own = await as.submit(proposalBody(), 'accountant');
    const writers = await as.submit(repeatBody(1), 'secondAccountant');
    const employees = await as.submit(repeatBody(2), 'employee');

    expect(own.body.status).toBe('PROPOSED');
    expect(own.body.reasons).toContain(
      'separation of duties: kari@demo.no last changed the pattern and submitted this proposal, so a second person must approve it',
    );
    expect(writers.body.status).toBe('PROPOSED');
    expect(employees.body.status).toBe('APPROVED');
  });

  it('lets a pattern a reviewer confirmed auto-approve for others, and for the reviewer once someone else confirmed it', async () => {
    const first = await as.submit(proposalBody({ accountCode: '6800' }), 'employee');
    await as.post(`/v1/review/${first.body.id}/approve`, 'accountant', { corrections: { accountCode: '6540' } });

    expect((await as.submit(repeatBody(1), 'colleague')).body.status).toBe('APPROVED');
    const reviewers = await as.submit(repeatBody(2), 'accountant');
    expect(reviewers.body.status).toBe('PROPOSED');
    expect(reviewers.body.reasons.join(' ')).toMatch(/only kari@demo\.no, who submitted this proposal, has confirmed/);

    await as.post(`/v1/review/${reviewers.body.id}/approve`, 'secondAccountant');

    expect((await as.submit(repeatBody(3), 'accountant')).body.status).toBe('APPROVED');
  });
});
