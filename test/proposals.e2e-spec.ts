import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { gifDeclaring, pngDeclaring, webpDeclaring } from '@app/testing';
import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, PDF, PEOPLE, proposalBody, repeatBody } from './support/proposals';

describe('proposals end to end (docs/api.md §4.1, §4.2, §4.4, §4.5)', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    // Every test in a company of its own: patterns and outbox rows do not leak between tests.
    as = api(t, await t.newCompany('prop'));
  });

  const knownMerchant = () =>
    as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });

  describe('a known merchant', () => {
    it('is auto-approved: 201 with Proposed and Approved, executeAfter = now + 15 min, the user told with the confidence', async () => {
      expect((await knownMerchant()).status).toBe(201);

      const res = await as.submit();

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        correlationId: res.body.id,
        status: 'APPROVED',
        confidence: expect.any(Number),
        route: 'auto_approve',
        reasons: expect.arrayContaining([expect.stringContaining('exact merchant match')]),
        executeAfter: new Date(t.clock.now().getTime() + 15 * 60_000).toISOString(),
        amount: '119.00',
        autoApproved: true,
      });
      expect(res.body.confidence).toBeGreaterThanOrEqual(0.9);
      expect(res.body.events).toEqual([
        {
          id: expect.any(String),
          type: 'Proposed',
          status: 'PROPOSED',
          proposalId: res.body.id,
          correlationId: res.body.id,
          sequence: 1,
          occurredAt: t.clock.now().toISOString(),
          actor: PEOPLE.employee.sub,
          company: expect.any(String),
          channel: 'slack',
          provider: null,
          api_calls: [],
          confidence: res.body.confidence,
          data: expect.objectContaining({
            merchant: 'Spotify AB',
            amount: '119.00',
            receipt: {
              filename: 'r.pdf',
              contentType: 'application/pdf',
              sizeBytes: PDF.length,
              sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
            },
          }),
        },
        expect.objectContaining({
          type: 'Approved',
          status: 'APPROVED',
          sequence: 2,
          data: expect.objectContaining({ auto: true }),
        }),
      ]);
      expect(JSON.stringify(res.body)).not.toContain(PDF.toString('base64'));
      const told = (await as.outbox()).filter((row) => row.target === 'user_thread');
      expect(told).toEqual([
        {
          target: 'user_thread',
          kind: 'proposal_auto_approved',
          payload: expect.objectContaining({
            proposalId: res.body.id,
            confidence: res.body.confidence,
            actor: PEOPLE.employee.sub,
            thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
          }),
        },
      ]);
    });
  });

  describe('an unknown merchant', () => {
    it('scores exactly 0.0, stays PROPOSED, and the review channel is told', async () => {
      const res = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'PROPOSED',
        confidence: 0,
        route: 'review_required',
        executeAfter: null,
      });
      expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['Proposed']);
      expect(await as.outbox()).toEqual([
        {
          target: 'review',
          kind: 'proposal_needs_review',
          payload: expect.objectContaining({ proposalId: res.body.id, confidence: 0 }),
        },
      ]);
      expect((await as.get(`/v1/proposals/${res.body.id}`, 'employee')).body).toMatchObject({ status: 'PROPOSED' });
    });

    it('approved with corrections teaches the pattern: the next proposal from that merchant auto-approves', async () => {
      const first = await as.submit(
        proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS', accountCode: '6500', vatRate: '15' }),
      );

      const approved = await as.post(`/v1/review/${first.body.id}/approve`, 'accountant', {
        corrections: { accountCode: '6540', vatRate: '25' },
      });

      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({
        status: 'APPROVED',
        accountCode: '6540',
        vatRate: '25',
        approvedBy: PEOPLE.accountant.sub,
        corrections: { accountCode: '6540', vatRate: '25' },
        executeAfter: t.clock.now().toISOString(),
      });
      const saved = await as.get('/v1/events?type=PatternSaved', 'accountant');
      expect(saved.body.items).toEqual([
        expect.objectContaining({
          proposalId: first.body.id,
          actor: PEOPLE.accountant.sub,
          status: null,
          data: {
            cause: 'approval',
            pattern: expect.objectContaining({
              accountCode: '6540',
              vatRate: '25',
              approvals: 1,
              amounts: { count: 1, mean: '119.00', min: '119.00', max: '119.00' },
            }),
          },
        }),
      ]);

      const next = await as.submit(
        repeatBody(1, { merchant: 'FJELLVANN KAFFEBRENNERI A/S', accountCode: '6540', vatRate: '25' }),
      );
      expect(next.body).toMatchObject({ status: 'APPROVED', route: 'auto_approve' });
    });
  });

  describe('a possible duplicate', () => {
    it('is stored PROPOSED with a reason naming the earlier proposal, and a monthly repeat is not', async () => {
      await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
      const first = await as.submit();
      const again = await as.submit(proposalBody({ merchant: 'SPOTIFY AB *P2B9C1X', date: '2026-11-21' }));
      const lastMonth = await as.submit(repeatBody(1, { date: '2026-10-20' }));

      expect(first.body.status).toBe('APPROVED');
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ status: 'PROPOSED', route: 'review_required', executeAfter: null });
      expect(again.body.reasons).toEqual(
        expect.arrayContaining([expect.stringContaining(`possible duplicate of proposal ${first.body.id}`)]),
      );
      expect((await as.get(`/v1/proposals/${again.body.id}`, 'accountant')).body.reasons.join(' ')).toMatch(
        /the same receipt \(identical file\)/,
      );
      expect(lastMonth.body.status).toBe('APPROVED');
    });
  });

  describe('rejection', () => {
    it('tells the user why; a corrected resubmission joins the chain', async () => {
      const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS', amount: '1190.00' }));

      const rejected = await as.post(`/v1/review/${first.body.id}/reject`, 'accountant', {
        reason: 'wrong amount: the receipt says 119.00',
      });

      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({
        status: 'REJECTED',
        rejectedBy: PEOPLE.accountant.sub,
        rejectionReason: 'wrong amount: the receipt says 119.00',
      });
      expect((await as.outbox()).filter((row) => row.kind === 'proposal_rejected')).toEqual([
        {
          target: 'user_thread',
          kind: 'proposal_rejected',
          payload: expect.objectContaining({
            proposalId: first.body.id,
            reason: 'wrong amount: the receipt says 119.00',
            actor: PEOPLE.employee.sub,
          }),
        },
      ]);

      const again = await as.submit(
        proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS', resubmissionOf: first.body.id }),
      );

      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({
        correlationId: first.body.correlationId,
        resubmissionOf: first.body.id,
        status: 'PROPOSED',
      });
      const chain = await as.get(`/v1/events?correlationId=${first.body.correlationId}`, 'manager');
      expect(chain.body.items.map((e: { type: string; sequence: number }) => [e.type, e.sequence])).toEqual([
        ['Proposed', 1],
        ['Rejected', 2],
        ['Proposed', 3],
      ]);
    });

    it("of another employee's proposal is refused with 403, as reading it is", async () => {
      const hers = await as.submit(proposalBody({ merchant: 'Ukjent Leverandør AS' }), 'colleague');
      expect((await as.post(`/v1/review/${hers.body.id}/reject`, 'accountant', { reason: 'no receipt' })).status).toBe(
        200,
      );

      const taken = await as.submit(proposalBody({ merchant: 'Ukjent Leverandør AS', resubmissionOf: hers.body.id }));
      expectProblem(taken, 403, 'permission_denied');
      expectProblem(await as.get(`/v1/proposals/${hers.body.id}`, 'employee'), 403, 'permission_denied');

      // Her own correction joins the chain.
      const own = await as.submit(
        proposalBody({ merchant: 'Ukjent Leverandør AS', resubmissionOf: hers.body.id }),
        'colleague',
      );
      expect(own.status).toBe(201);
      expect(own.body.correlationId).toBe(hers.body.correlationId);
    });

    it("of a colleague's proposal by an accountant is refused with 403, and the owner's own correction still joins the chain", async () => {
      const hers = await as.submit(proposalBody({ merchant: 'Ukjent Leverandør AS' }), 'colleague');
      expect((await as.post(`/v1/review/${hers.body.id}/reject`, 'accountant', { reason: 'no receipt' })).status).toBe(
        200,
      );

      const taken = await as.submit(
        proposalBody({ merchant: 'Ukjent Leverandør AS', resubmissionOf: hers.body.id }),
        'secondAccountant',
      );
      expectProblem(taken, 403, 'permission_denied');
      expect(taken.body.detail).toContain('only its submitter may resubmit it');

      const own = await as.submit(
        proposalBody({ merchant: 'Ukjent Leverandør AS', resubmissionOf: hers.body.id }),
        'colleague',
      );
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ correlationId: hers.body.correlationId, resubmissionOf: hers.body.id });
    });

    it('of an auto-approved proposal is possible before execution', async () => {
      await knownMerchant();
      const auto = await as.submit();

      const rejected = await as.post(`/v1/review/${auto.body.id}/reject`, 'accountant', {
        reason: 'private subscription',
      });

      expect(rejected.status).toBe(200);
      expect(rejected.body.events.map((e: { type: string }) => e.type)).toEqual(['Proposed', 'Approved', 'Rejected']);
    });

    it('needs a reason of 1 to 1000 characters', async () => {
      const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));

      expectProblem(await as.post(`/v1/review/${first.body.id}/reject`, 'accountant', {}), 400, 'validation_failed');
      expectProblem(
        await as.post(`/v1/review/${first.body.id}/reject`, 'accountant', { reason: 'x'.repeat(1001) }),
        400,
        'validation_failed',
      );
    });

    it('of a REJECTED proposal, and approval of a REJECTED one, are invalid transitions', async () => {
      const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));
      await as.post(`/v1/review/${first.body.id}/reject`, 'accountant', { reason: 'duplicate' });

      expectProblem(
        await as.post(`/v1/review/${first.body.id}/reject`, 'accountant', { reason: 'again' }),
        409,
        'invalid_transition',
      );
      expectProblem(await as.post(`/v1/review/${first.body.id}/approve`, 'accountant'), 409, 'invalid_transition');
    });
  });

  describe('review', () => {
    it('refuses the submitter approving their own proposal with permission_denied and says why', async () => {
      const own = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }), 'admin');

      const res = await as.post(`/v1/review/${own.body.id}/approve`, 'admin');

      expectProblem(res, 403, 'permission_denied');
      expect(res.body.detail).toMatch(/separation of duties/);
    });

    it('is for accountants: an employee gets role_insufficient', async () => {
      const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));

      expectProblem(await as.post(`/v1/review/${first.body.id}/approve`, 'colleague'), 403, 'role_insufficient');
    });

    it('validates corrections strictly', async () => {
      const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));

      const res = await as.post(`/v1/review/${first.body.id}/approve`, 'accountant', {
        corrections: { accountCode: 6540, department: 'x' },
      });

      expectProblem(res, 400, 'validation_failed');
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
        new Set(['corrections.accountCode', 'corrections.department']),
      );
    });

    it.each([
      ['approve', 'approve', {}],
      ['reject', 'reject', { reason: 'no' }],
    ])(
      'lets exactly one of two concurrent %s calls win; the other is 409 invalid_transition',
      async (_label, action, body) => {
        const first = await as.submit(proposalBody({ merchant: 'Fjellvann Kaffebrenneri AS' }));

        const results = await Promise.all([
          as.post(`/v1/review/${first.body.id}/${action}`, 'accountant', body),
          as.post(`/v1/review/${first.body.id}/${action}`, 'secondAccountant', body),
        ]);

        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        expect(results.find((r) => r.status === 409)?.body.code).toBe('invalid_transition');
        const chain = await as.get(`/v1/events?correlationId=${first.body.id}`, 'manager');
        expect(chain.body.items.map((e: { sequence: number }) => e.sequence)).toEqual([1, 2]);
      },
    );
  });

  describe('reading a proposal', () => {
    it("gives an employee their own, and refuses a colleague's with permission_denied", async () => {
      const mine = await as.submit();

      expect((await as.get(`/v1/proposals/${mine.body.id}`, 'employee')).body).toMatchObject({
        id: mine.body.id,
        events: [expect.objectContaining({ type: 'Proposed' })],
      });
      expectProblem(await as.get(`/v1/proposals/${mine.body.id}`, 'colleague'), 403, 'permission_denied');
      expect((await as.get(`/v1/proposals/${mine.body.id}`, 'manager')).status).toBe(200);
    });

    it("answers another company's proposal with 404, like a missing one", async () => {
      const mine = await as.submit();
      const other = api(t, await t.newCompany('other'));

      expectProblem(await other.get(`/v1/proposals/${mine.body.id}`, 'admin'), 404, 'not_found');
      expectProblem(await other.post(`/v1/review/${mine.body.id}/approve`, 'accountant'), 404, 'not_found');
      expectProblem(
        await other.post(`/v1/review/${mine.body.id}/reject`, 'accountant', { reason: 'x' }),
        404,
        'not_found',
      );
      expectProblem(await other.submit(proposalBody({ resubmissionOf: mine.body.id })), 404, 'not_found');
      expectProblem(await as.get('/v1/proposals/no-such-proposal', 'admin'), 404, 'not_found');
    });
  });

  describe('the date', () => {
    const daysFromToday = (days: number) => {
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(t.clock.now());
      return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    };

    it('before the open period (by default January 1 of last year) is never auto-approved, and the reasons say why', async () => {
      await knownMerchant();
      const lastYear = Number(daysFromToday(0).slice(0, 4)) - 1;

      const res = await as.submit(proposalBody({ date: '1970-01-01' }));

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'PROPOSED', route: 'review_required', confidence: 0.5 });
      expect(res.body.reasons).toContain(
        `dated 1970-01-01, before the company's open period, which starts ${lastYear}-01-01: ` +
          'the books before it are closed, so a person must decide where it belongs; never auto-approved',
      );
      expect((await as.outbox()).map((row) => row.kind)).toEqual(['proposal_needs_review']);
      const start = await as.submit(repeatBody(1, { date: `${lastYear}-01-01` }));
      expect(start.body).toMatchObject({ status: 'APPROVED', route: 'auto_approve' });
    });

    it.each([
      ['the day after tomorrow', () => daysFromToday(2)],
      ['2099-12-31', () => '2099-12-31'],
      ['9999-12-31', () => '9999-12-31'],
    ])(
      'more than a day ahead (%s) is refused with 400 validation_failed on date, and nothing is stored',
      async (_, date) => {
        await knownMerchant();

        const res = await as.submit(proposalBody({ date: date() }));

        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors).toEqual([
          {
            field: 'date',
            message: `date must not be later than ${daysFromToday(1)} (today in Norway, ${daysFromToday(0)}, plus 1 day)`,
          },
        ]);
        expect(await as.outbox()).toEqual([]);
      },
    );

    it('of tomorrow is taken', async () => {
      await knownMerchant();

      const res = await as.submit(proposalBody({ date: daysFromToday(1) }));

      expect(res.status).toBe(201);
      expect(res.body.status).toBe('APPROVED');
    });
  });

  describe('an expense in another currency', () => {
    it('is refused with 422 nok_amount_required without amountNok, and nothing is stored', async () => {
      const res = await as.submit(proposalBody({ currency: 'EUR', amount: '10.00' }));

      expectProblem(res, 422, 'nok_amount_required');
      expect(await as.outbox()).toEqual([]);
    });

    it('refuses an amountNok that is not a decimal string with validation_failed', async () => {
      const res = await as.submit(proposalBody({ currency: 'EUR', amount: '10.00', amountNok: 117.5 }));

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['amountNok']);
    });

    it('is stored with the NOK amount paid', async () => {
      const res = await as.submit(
        proposalBody({ currency: 'EUR', amount: '10.00', amountNok: '117.50', vatTreatment: 'foreign_no_deduction' }),
      );

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ currency: 'EUR', amount: '10.00', amountNok: '117.50' });
    });
  });

  describe('validation', () => {
    it('lists every bad field, unknown ones included, with validation_failed', async () => {
      const res = await as.submit(
        proposalBody({
          amount: 119,
          currency: 'nok',
          date: '20-11-2026',
          vatRate: '25%',
          thread: { channel: 'irc', threadId: 'x' },
          tip: '10',
        }),
      );

      expectProblem(res, 400, 'validation_failed');
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
        new Set(['amount', 'currency', 'date', 'vatRate', 'thread.channel', 'tip']),
      );
    });

    it('refuses unknown fields inside the receipt and the thread too, with the content problems', async () => {
      const res = await as.submit(
        proposalBody({
          amount: '-1',
          receipt: {
            filename: 'r.pdf',
            contentType: 'application/pdf',
            dataBase64: PDF.toString('base64'),
            url: 'http://x',
          },
          thread: { channel: 'slack', threadId: 'C01/1', ts: '1' },
        }),
      );

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'receipt.url', message: 'receipt.url is not an allowed field' },
          { field: 'thread.ts', message: 'thread.ts is not an allowed field' },
          expect.objectContaining({ field: 'amount' }),
        ]),
      );
    });

    it.each([
      ['an array', []],
      ['a string', '"expense"'],
      ['null', 'null'],
    ])('refuses a body that is %s', async (_label, body) => {
      const res = await t.http
        .post('/v1/proposals')
        .set('authorization', `Bearer ${t.token({ ...PEOPLE.employee })}`)
        .set('content-type', 'application/json')
        .send(typeof body === 'string' ? body : JSON.stringify(body));

      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      // JSON's own scalars are refused by the body parser; an array reaches the handler.
      if (Array.isArray(body))
        expect(res.body.errors).toEqual([{ field: 'body', message: 'body must be a JSON object' }]);
    });

    it.each([
      ['more than 2 fraction digits', { amount: '119.001' }, 'amount'],
      ['a zero amount', { amount: '0.00' }, 'amount'],
      ['an impossible date', { date: '2026-02-30' }, 'date'],
      ['another kind', { kind: 'invoice' }, 'kind'],
      [
        'a receipt that is not base64',
        { receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: '***' } },
        'receipt.dataBase64',
      ],
      [
        'a receipt of a type not accepted',
        { receipt: { filename: 'r.exe', contentType: 'application/x-msdownload', dataBase64: 'TVo=' } },
        'receipt.contentType',
      ],
      [
        'a PDF receipt that is not a PDF',
        {
          receipt: {
            filename: 'r.pdf',
            contentType: 'application/pdf',
            dataBase64: Buffer.from('MZ\x90\x00').toString('base64'),
          },
        },
        'receipt.dataBase64',
      ],
    ])('refuses %s', async (_label, change, field) => {
      const res = await as.submit(proposalBody(change));

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it.each([
      ['a PDF header and garbage', Buffer.from('%PDF-1.7\n\u0000\u00ff\u0010 not a PDF at all\n', 'latin1')],
      ['a truncated PDF', PDF.subarray(0, Math.floor(PDF.length / 2))],
      ['a PDF with a ZIP appended', Buffer.concat([PDF, Buffer.from('PK\u0003\u0004 PK\u0005\u0006', 'latin1')])],
    ])(
      'refuses a PDF receipt that does not parse as one (%s) with validation_failed, storing nothing',
      async (_label, bytes) => {
        const company = await t.newCompany('pdf');
        const receipt = { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') };

        const res = await api(t, company).submit(proposalBody({ receipt }));

        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors).toEqual([
          {
            field: 'receipt.dataBase64',
            message: expect.stringMatching(/^receipt\.dataBase64 is not a application\/pdf file: it /),
          },
        ]);
        const db = t.app.get(DataSource);
        const stored = async (table: string) =>
          Number((await db.query(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1`, [company]))[0].n);
        expect({ proposals: await stored('proposals'), receipts: await stored('receipts') }).toEqual({
          proposals: 0,
          receipts: 0,
        });
        expect(await api(t, company).outbox()).toEqual([]);
      },
    );
  });

  describe('image receipts beyond the bounds (docs/api.md §4.1)', () => {
    it.each([
      [
        'a WebP of 16383 × 16383 pixels in 26 bytes',
        'image/webp',
        webpDeclaring(16383, 16383),
        /declares 16383 × 16383 pixels/,
      ],
      ['a GIF of 16000 × 16000 pixels', 'image/gif', gifDeclaring(16000, 16000), /declares 16000 × 16000 pixels/],
      [
        'a PNG of 100000 × 100000 pixels',
        'image/png',
        pngDeclaring(100_000, 100_000),
        /declares 100000 × 100000 pixels/,
      ],
      ['a GIF of 500 frames', 'image/gif', gifDeclaring(10, 10, 500), /has 500 pages or frames, more than 20/],
    ])(
      'refuses %s with validation_failed on receipt.dataBase64, storing nothing',
      async (_label, contentType, bytes, why) => {
        const company = await t.newCompany('img');
        const receipt = { filename: 'r.img', contentType, dataBase64: bytes.toString('base64') };

        const res = await api(t, company).submit(proposalBody({ receipt }));

        expectProblem(res, 400, 'validation_failed');
        expect(res.body.errors).toEqual([{ field: 'receipt.dataBase64', message: expect.stringMatching(why) }]);
        const db = t.app.get(DataSource);
        const stored = async (table: string) =>
          Number((await db.query(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1`, [company]))[0].n);
        expect({ proposals: await stored('proposals'), receipts: await stored('receipts') }).toEqual({
          proposals: 0,
          receipts: 0,
        });
        expect(await api(t, company).outbox()).toEqual([]);
      },
    );

    it('takes an ordinary photo of a receipt', async () => {
      const photo = await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#eee' } })
        .webp()
        .toBuffer();
      const receipt = { filename: 'r.webp', contentType: 'image/webp', dataBase64: photo.toString('base64') };

      expect((await as.submit(proposalBody({ receipt }))).status).toBe(201);
    });
  });

  describe('Idempotency-Key (docs/api.md §1)', () => {
    it('replays the first response to a retry with the same body, and stores one proposal', async () => {
      const first = await as.submit(proposalBody(), 'employee', 'agent-run-42');
      t.clock.advance(60_000);
      const retry = await as.submit({ ...proposalBody(), resubmissionOf: undefined }, 'employee', 'agent-run-42');

      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.text).toBe(first.text);
      const pending = await as.get('/v1/events?status=PROPOSED', 'manager');
      expect(pending.body.items).toHaveLength(1);
    });

    it('refuses the same key with a different body with 409 idempotency_conflict', async () => {
      await as.submit(proposalBody(), 'employee', 'agent-run-43');

      expectProblem(
        await as.submit(proposalBody({ amount: '120.00' }), 'employee', 'agent-run-43'),
        409,
        'idempotency_conflict',
      );
    });

    it('scopes keys to the actor', async () => {
      const mine = await as.submit(proposalBody(), 'employee', 'shared-key');
      const theirs = await as.submit(proposalBody(), 'colleague', 'shared-key');

      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(mine.body.id);
    });

    it('keeps a key 24 hours', async () => {
      const first = await as.submit(proposalBody(), 'employee', 'daily');
      t.clock.advance(24 * 3600_000);

      const later = await as.submit(proposalBody(), 'employee', 'daily');

      expect(later.status).toBe(201);
      expect(later.body.id).not.toBe(first.body.id);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
    });

    it('runs one of two concurrent requests with one key; the other gets its response', async () => {
      const [a, b] = await Promise.all([
        as.submit(proposalBody(), 'employee', 'concurrent'),
        as.submit(proposalBody(), 'employee', 'concurrent'),
      ]);

      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.id).toBe(b.body.id);
      expect((await as.get('/v1/events?status=PROPOSED', 'manager')).body.items).toHaveLength(1);
    });

    it.each([
      ['empty', ''],
      ['too long', 'k'.repeat(256)],
      ['not ASCII', 'nøkkel'],
    ])('refuses a key that is %s with validation_failed', async (_label, key) => {
      const res = await as.submit(proposalBody(), 'employee', key);

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    });
  });
});

describe('the OpenAPI document of the proposal routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it.each([
    ['post', '/v1/proposals', 'solve', 'employee', '201'],
    ['get', '/v1/proposals/{id}', 'query', 'employee', '200'],
    ['post', '/v1/review/{id}/approve', 'solve', 'accountant', '200'],
    ['post', '/v1/review/{id}/reject', 'solve', 'accountant', '200'],
    ['get', '/v1/events', 'monitor', 'manager', '200'],
    ['get', '/v1/patterns', 'rules', 'accountant', '200'],
    ['post', '/v1/patterns', 'rules', 'accountant', '201'],
    ['put', '/v1/patterns/{id}', 'rules', 'accountant', '200'],
    ['delete', '/v1/patterns/{id}', 'rules', 'accountant', '200'],
    ['get', '/v1/config/company', 'config', 'admin', '200'],
    ['put', '/v1/config/company', 'config', 'admin', '200'],
  ])(
    'documents %s %s with permission %s, minimum role %s and its %s response',
    async (method, path, permission, minRole, status) => {
      const document = (await t.http.get('/openapi.json')).body;
      const operation = document.paths[path]?.[method];

      expect(operation).toMatchObject({ 'x-permission': permission, 'x-min-role': minRole });
      expect(operation.responses[status].content['application/json'].schema).toBeDefined();
      expect(operation.responses['403']).toBeDefined();
    },
  );

  it('documents exactly the fields POST /v1/proposals accepts, nested ones included', async () => {
    const document = (await t.http.get('/openapi.json')).body;
    const body = document.paths['/v1/proposals'].post.requestBody.content['application/json'].schema;
    const schemas = document.components.schemas;
    const fieldsOf = (ref: string) => Object.keys(schemas[ref.split('/').pop() as string].properties).sort();

    // The fields of docs/api.md §4.1 (with the bookkeeping fields) plus `amountNok`: the
    // validation pipe refuses any other (see 'validation' above).
    expect(fieldsOf(body.$ref)).toEqual(
      [
        'kind',
        'merchant',
        'amount',
        'currency',
        'amountNok',
        'date',
        'accountCode',
        'vatRate',
        'description',
        'receipt',
        'thread',
        'resubmissionOf',
        'paidWith',
        'vatTreatment',
        'lines',
        'supplier',
        'invoiceNumber',
        'dueDate',
        'departmentId',
      ].sort(),
    );
    expect(fieldsOf('ReceiptUploadDto')).toEqual(['contentType', 'dataBase64', 'filename']);
    expect(fieldsOf('ThreadDto')).toEqual(['channel', 'threadId']);
  });

  it('documents the Idempotency-Key header of POST /v1/proposals', async () => {
    const document = (await t.http.get('/openapi.json')).body;

    expect(document.paths['/v1/proposals'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]),
    );
  });
});
