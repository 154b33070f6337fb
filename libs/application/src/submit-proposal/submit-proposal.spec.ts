import {
  ConcurrencyConflict,
  ConfidenceEngine,
  InvalidTransition,
  MAX_RECEIPT_BYTES,
  NotFound,
  UnknownAccountCode,
  UnknownVatRate,
} from '@app/domain';
import { PDFDocument } from '@cantoo/pdf-lib';
import {
  aPattern,
  gifDeclaring,
  receiptImage,
  receiptPdf,
  TEST_COMPANY,
  webpDeclaring,
  aCompanyContext,
  aRepeatSubmission,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  SUBMITTER,
  fieldsOf,
  OTHER_COMPANY,
  PDF_BYTES,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';
import { ApplicationOptions } from '../application.options';
import { IdempotencyConflict } from '../idempotency/idempotent-execution';

const respond = (result: { proposal: { id: string; status: string } }) => ({
  status: 201,
  body: { id: result.proposal.id, status: result.proposal.status },
});

function never(): never {
  throw new Error('expected a stored result, not a replay');
}

afterAll(endUseCaseWorlds);

describe('SubmitProposal', () => {
  let world: UseCaseWorld;

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  describe('an unknown merchant', () => {
    it('scores exactly 0.0, stays PROPOSED with one Proposed event, and tells the review channel', async () => {
      const { proposal, events } = await submitted(world, aSubmission({ merchant: 'Brand New Supplier AS' }));

      expect(proposal).toMatchObject({
        status: 'PROPOSED',
        confidence: 0,
        route: 'review_required',
        executeAfter: null,
      });
      expect(events.map((e) => e.type)).toEqual(['Proposed']);
      expect(world.events.all()).toHaveLength(1);
      expect(await world.proposals.findById(TEST_COMPANY, proposal.id)).toEqual(proposal);
      expect(world.notifier.messages()).toEqual([
        {
          companyId: TEST_COMPANY,
          target: 'review',
          kind: 'proposal_needs_review',
          payload: expect.objectContaining({
            proposalId: proposal.id,
            merchant: 'Brand New Supplier AS',
            amount: '119.00',
            confidence: 0,
            route: 'review_required',
            submittedBy: EMPLOYEE.actor,
          }),
        },
      ]);
    });
  });

  describe('a known merchant with a verified pattern', () => {
    beforeEach(async () => {
      await world.patterns.save(aPattern({ approvals: 14 }), null);
    });

    it('auto-approves: Proposed and Approved stored, executeAfter = now + the default 15 minutes', async () => {
      const { proposal, events } = await submitted(world);

      expect(proposal.confidence).toBeGreaterThanOrEqual(0.9);
      expect(proposal).toMatchObject({ status: 'APPROVED', route: 'auto_approve', autoApproved: true });
      expect(proposal.executeAfter).toEqual(new Date('2026-11-20T10:15:00.000Z'));
      expect(events.map((e) => [e.type, e.status, e.sequence])).toEqual([
        ['Proposed', 'PROPOSED', 1],
        ['Approved', 'APPROVED', 2],
      ]);
      expect(
        events.every((e) => e.actor === EMPLOYEE.actor && e.company === TEST_COMPANY && e.channel === 'slack'),
      ).toBe(true);
    });

    it('tells the user in their thread, with the confidence, that it was auto-approved', async () => {
      const { proposal } = await submitted(world);

      expect(world.notifier.messages()).toEqual([
        {
          companyId: TEST_COMPANY,
          target: 'user_thread',
          kind: 'proposal_auto_approved',
          payload: expect.objectContaining({
            proposalId: proposal.id,
            confidence: proposal.confidence,
            executeAfter: '2026-11-20T10:15:00.000Z',
            actor: EMPLOYEE.actor,
            thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
          }),
        },
      ]);
    });

    it("waits the company's execution delay, 0 included", async () => {
      await world.settings.save(TEST_COMPANY, {
        ...(await world.settings.get(TEST_COMPANY)),
        executionDelayMinutes: 0,
      });

      const { proposal } = await submitted(world);

      expect(proposal.executeAfter).toEqual(world.clock.now());
    });
  });

  describe('the auto-approval limit', () => {
    beforeEach(async () => {
      await world.patterns.save(aPattern({ approvals: 14, amounts: [1_190_000, 1_250_000, 1_300_000] }), null);
    });

    it('sends an amount above the default limit of NOK 10 000 to review, with the reason', async () => {
      const { proposal, events } = await submitted(world, aSubmission({ amount: '12500.00' }));

      expect(proposal).toMatchObject({ status: 'PROPOSED', route: 'review_recommended', confidence: 0.85 });
      expect(proposal.reasons).toContain(
        "amount NOK 12500.00 is above the company's auto-approval limit of NOK 10000.00: a person must approve it",
      );
      expect(events.map((e) => e.type)).toEqual(['Proposed']);
      expect(world.notifier.messages()[0]).toMatchObject({ target: 'review', kind: 'proposal_needs_review' });
    });

    it("follows the company's own limit, or none", async () => {
      await world.updateCompanySettings.execute({
        caller: { ...ACCOUNTANT, role: 'admin' },
        changes: { autoApproveMaxAmount: null },
      });
      expect((await submitted(world, aSubmission({ amount: '12500.00' }))).proposal.status).toBe('APPROVED');

      await world.updateCompanySettings.execute({
        caller: { ...ACCOUNTANT, role: 'admin' },
        changes: { autoApproveMaxAmount: '12499.99' },
      });
      expect((await submitted(world, aSubmission({ amount: '12500.00' }))).proposal.status).toBe('PROPOSED');
    });
  });

  describe('separation of duties', () => {
    const spotifyRule = { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' };

    it('never auto-approves a proposal from a rule its submitter wrote, and says why', async () => {
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotifyRule });

      const { proposal } = await submitted(world, aSubmission({ amount: '9900.00' }), ACCOUNTANT);

      expect(proposal).toMatchObject({ status: 'PROPOSED', route: 'review_recommended', autoApproved: false });
      expect(proposal.reasons).toContain(
        `separation of duties: ${ACCOUNTANT.actor} wrote the pattern and submitted this proposal, so a second person must approve it`,
      );
      expect(world.notifier.messages()[0]).toMatchObject({ target: 'review' });
    });

    it('auto-approves the same proposal from someone else', async () => {
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotifyRule });

      expect((await submitted(world, aSubmission({ amount: '9900.00' }), EMPLOYEE)).proposal.status).toBe('APPROVED');
    });

    it('holds for the last person to change a rule', async () => {
      const other = { ...ACCOUNTANT, actor: 'per@example.no' };
      const rule = await world.createPattern.execute({ caller: other, pattern: spotifyRule });
      await world.editPattern.execute({ caller: ACCOUNTANT, patternId: rule.id, changes: { accountCode: '6540' } });

      const { proposal } = await submitted(world, aSubmission(), ACCOUNTANT);

      expect(proposal.status).toBe('PROPOSED');
      expect(proposal.reasons.join(' ')).toMatch(/last changed the pattern/);
    });

    it('lets a pattern a reviewer confirmed auto-approve for its submitter, not for the reviewer alone', async () => {
      const first = await submitted(world, aSubmission());
      await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: first.proposal.id });

      expect((await submitted(world, aRepeatSubmission(1), EMPLOYEE)).proposal.status).toBe('APPROVED');
      const own = await submitted(world, aRepeatSubmission(2), ACCOUNTANT);
      expect(own.proposal.status).toBe('PROPOSED');
      expect(own.proposal.reasons.join(' ')).toMatch(
        /only kari@example\.no, who submitted this proposal, has confirmed/,
      );
    });
  });

  describe('a merchant whose patterns change between submissions', () => {
    const pattern = () => aPattern({ id: 'pattern-spotify', approvals: 14 });

    beforeEach(async () => {
      await world.patterns.save(pattern(), null);
    });

    it('is scored against the patterns as they are at each submission, read once per submission', async () => {
      const read = jest.spyOn(world.patterns, 'findCandidates');
      const first = await submitted(world);
      // Another reviewer (or another instance) retires the pattern meanwhile.
      await world.patterns.save({ ...pattern(), retiredAt: world.clock.now(), version: 2 }, 1);

      const { proposal } = await submitted(world);

      expect(read).toHaveBeenCalledTimes(2);
      expect(first.proposal.status).toBe('APPROVED');
      expect(proposal).toMatchObject({ status: 'PROPOSED', confidence: 0, route: 'review_required' });
      expect(world.proposals.all()).toHaveLength(2);
      expect(
        world.events
          .all()
          .filter((e) => e.proposalId === proposal.id)
          .map((e) => e.type),
      ).toEqual(['Proposed']);
    });

    it('keeps an Idempotency-Key to the one stored proposal when the patterns changed before the retry', async () => {
      const first = await world.submitProposal.execute({
        caller: EMPLOYEE,
        submission: aSubmission(),
        idempotency: { key: 'k-r', respond },
      });
      await world.patterns.save({ ...pattern(), approvals: 15, version: 2 }, 1);
      const replay = await world.submitProposal.execute({
        caller: EMPLOYEE,
        submission: aSubmission(),
        idempotency: { key: 'k-r', respond },
      });

      expect(first.replayed).toBe(false);
      expect(replay).toEqual({ replayed: true, response: respond(first.replayed ? never() : first.result) });
      expect(world.proposals.all()).toHaveLength(1);
      expect(world.idempotencyKeys.size).toBe(1);
    });

    it("reads another company's patterns for that company only", async () => {
      const read = jest.spyOn(world.patterns, 'findCandidates');

      const { proposal } = await submitted(world, aSubmission(), { ...EMPLOYEE, company: OTHER_COMPANY });

      expect(read).toHaveBeenCalledWith(OTHER_COMPANY, pattern().merchantKey);
      expect(proposal.confidence).toBe(0);
    });
  });

  describe('the receipt', () => {
    it('keeps the bytes in the receipt store and only metadata and digest in the event', async () => {
      const { proposal, events } = await submitted(world);

      const stored = await world.receipts.find(TEST_COMPANY, proposal.id);
      expect(Buffer.from(stored!.bytes)).toEqual(PDF_BYTES);
      expect(stored).toMatchObject({
        filename: 'r.pdf',
        contentType: 'application/pdf',
        sha256: proposal.receipt?.sha256,
      });
      expect(events[0].data).toMatchObject({
        receipt: { filename: 'r.pdf', sizeBytes: PDF_BYTES.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
      expect(JSON.stringify(events)).not.toContain(PDF_BYTES.toString('base64'));
    });

    it('is optional', async () => {
      const { proposal } = await submitted(world, aSubmission({ receipt: null }));

      expect(proposal.receipt).toBeNull();
      expect(world.receipts.size).toBe(0);
    });

    it.each([
      ['not base64', { dataBase64: 'not base64!' }],
      ['base64 without padding', { dataBase64: 'JVBERi0' }],
      ['a PNG that is a PDF', { contentType: 'image/png' }],
      ['a JPEG that is text', { contentType: 'image/jpeg', dataBase64: Buffer.from('hello').toString('base64') }],
    ])('is refused when it is %s', async (_label, change) => {
      const receipt = { ...aSubmission().receipt!, ...change };

      expect(
        await fieldsOf(world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission({ receipt }) })),
      ).toEqual(['receipt.dataBase64']);
    });

    it.each([
      ['a PDF header and garbage', Buffer.from('%PDF-1.7\n\u0000\u00ff garbage\n', 'latin1')],
      ['a truncated PDF', PDF_BYTES.subarray(0, PDF_BYTES.length - 10)],
      // The same bytes but for the page tree's one kid, blanked out: every offset stays right.
      [
        'a PDF without a page',
        Buffer.from(PDF_BYTES.toString('latin1').replace('[3 0 R] /Count 1', '[     ] /Count 0')),
      ],
    ])('is refused, with every other problem and storing nothing, when it is %s', async (_label, bytes) => {
      const receipt = { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') };
      const outcome = world.submitProposal.execute({
        caller: EMPLOYEE,
        submission: aSubmission({ receipt, amount: '0.00' }),
      });

      await expect(outcome).rejects.toMatchObject({
        fieldErrors: expect.arrayContaining([
          {
            field: 'receipt.dataBase64',
            message: expect.stringMatching(/^receipt.dataBase64 is not a application\/pdf file: it /),
          },
        ]),
      });
      expect(await fieldsOf(outcome)).toEqual(['receipt.dataBase64', 'amount']);
      expect(world.receipts.size).toBe(0);
      expect(world.proposals.all()).toEqual([]);
      expect(world.events.all()).toEqual([]);
    });

    it.each([
      ['a WebP declaring 16383 × 16383 pixels', 'image/webp', webpDeclaring(16383, 16383), /declares 16383 × 16383/],
      ['a GIF of 16000 × 16000 pixels', 'image/gif', gifDeclaring(16000, 16000), /declares 16000 × 16000/],
      ['a GIF of 200 frames', 'image/gif', gifDeclaring(10, 10, 200), /has 200 pages or frames/],
    ])('is refused, storing nothing, when it is %s', async (_label, contentType, bytes, problem) => {
      const receipt = { filename: 'r.img', contentType, dataBase64: bytes.toString('base64') };
      const outcome = world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission({ receipt }) });

      await expect(outcome).rejects.toMatchObject({
        fieldErrors: [{ field: 'receipt.dataBase64', message: expect.stringMatching(problem) }],
      });
      expect(world.receipts.size).toBe(0);
      expect(world.proposals.all()).toEqual([]);
      expect(world.events.all()).toEqual([]);
    });

    it('reads the header only of an image of an accepted type: an SVG is refused for its type alone', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>';
      const receipt = {
        filename: 'r.svg',
        contentType: 'image/svg+xml',
        dataBase64: Buffer.from(svg).toString('base64'),
      };

      expect(
        await fieldsOf(world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission({ receipt }) })),
      ).toEqual(['receipt.contentType']);
    });

    it('is refused over the configured limit, checked before decoding', async () => {
      world = aUseCaseWorld({ receiptMaxBytes: 16 });
      const receipt = { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: PDF_BYTES.toString('base64') };

      expect(
        await fieldsOf(world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission({ receipt }) })),
      ).toEqual(['receipt']);
    });

    it('never exceeds the 7 MiB the contract allows, whatever the configuration', () => {
      expect(new ApplicationOptions({ receiptMaxBytes: 50 * 1024 * 1024 }).receiptMaxBytes).toBe(MAX_RECEIPT_BYTES);
    });
  });

  it('reports every invalid field at once and stores nothing', async () => {
    const submission = aSubmission({
      amount: '119.001',
      currency: 'nok',
      date: '2026-02-30',
      vatRate: '250',
      receipt: { filename: 'r.exe', contentType: 'application/x-msdownload', dataBase64: 'TVo=' },
      resubmissionOf: 42,
    });

    expect(await fieldsOf(world.submitProposal.execute({ caller: EMPLOYEE, submission }))).toEqual([
      'amount',
      'currency',
      'date',
      'vatRate',
      'receipt.contentType',
      'resubmissionOf',
    ]);
    expect(world.events.all()).toEqual([]);
    expect(world.notifier.messages()).toEqual([]);
  });

  it('stores nothing at all — events, proposal, receipt, key — when the unit fails', async () => {
    jest.spyOn(world.notifier, 'notify').mockRejectedValueOnce(new Error('outbox unavailable'));

    await expect(
      world.submitProposal.execute({
        caller: EMPLOYEE,
        submission: aSubmission(),
        idempotency: { key: 'k-1', respond },
      }),
    ).rejects.toThrow('outbox unavailable');

    expect(world.events.all()).toEqual([]);
    expect(world.proposals.all()).toEqual([]);
    expect(world.receipts.size).toBe(0);
    expect(world.idempotencyKeys.size).toBe(0);
  });

  describe("against the company's chart", () => {
    beforeEach(async () => {
      await world.contexts.save(aCompanyContext());
    });

    it('names the provider in the identity chain of the events', async () => {
      const { events } = await submitted(world);

      expect(events.map((e) => e.provider)).toEqual(['tripletex']);
    });

    it('refuses an account code the chart does not have with unknown_account_code', async () => {
      const error = await submitted(world, aSubmission({ accountCode: '7777' })).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(UnknownAccountCode);
      expect(error).toMatchObject({ code: 'unknown_account_code', fieldErrors: [{ field: 'accountCode' }] });
      expect(world.events.all()).toEqual([]);
    });

    it('refuses a VAT rate none of its VAT types has with unknown_vat_rate', async () => {
      await expect(submitted(world, aSubmission({ vatRate: '12' }))).rejects.toBeInstanceOf(UnknownVatRate);
    });

    it('is not checked while the company has no context (no provider connected yet)', async () => {
      world = aUseCaseWorld();

      const { proposal, events } = await submitted(world, aSubmission({ accountCode: '7777' }));

      expect(proposal.accountCode).toBe('7777');
      expect(events[0].provider).toBeNull();
    });
  });

  describe('resubmission', () => {
    async function aRejectedProposal() {
      const { proposal } = await submitted(world, aSubmission({ amount: '1190.00', merchant: 'Some Supplier' }));
      return (
        await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'wrong amount' })
      ).proposal;
    }

    it('of a REJECTED proposal joins its chain, right after its last event', async () => {
      const rejected = await aRejectedProposal();

      const { proposal, events } = await submitted(
        world,
        aSubmission({ merchant: 'Some Supplier', resubmissionOf: rejected.id }),
      );

      expect(proposal).toMatchObject({
        correlationId: rejected.correlationId,
        resubmissionOf: rejected.id,
        status: 'PROPOSED',
      });
      expect(events.map((e) => [e.type, e.correlationId, e.sequence])).toEqual([
        ['Proposed', rejected.correlationId, rejected.version + 1],
      ]);
      expect((await world.events.readChain(TEST_COMPANY, rejected.correlationId)).map((e) => e.type)).toEqual([
        'Proposed',
        'Rejected',
        'Proposed',
      ]);
    });

    it('of the same rejected proposal twice is refused the second time (the chain position is taken)', async () => {
      const rejected = await aRejectedProposal();
      await submitted(world, aSubmission({ resubmissionOf: rejected.id }));

      await expect(submitted(world, aSubmission({ resubmissionOf: rejected.id }))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
    });

    it('of a proposal that is not REJECTED is an invalid transition', async () => {
      const { proposal } = await submitted(world);

      await expect(submitted(world, aSubmission({ resubmissionOf: proposal.id }))).rejects.toBeInstanceOf(
        InvalidTransition,
      );
    });

    it("of another company's proposal is not found", async () => {
      const rejected = await aRejectedProposal();

      await expect(
        submitted(world, aSubmission({ resubmissionOf: rejected.id }), { ...EMPLOYEE, company: OTHER_COMPANY }),
      ).rejects.toBeInstanceOf(NotFound);
    });
  });

  describe('with an Idempotency-Key', () => {
    const submit = (submission = aSubmission(), key = 'retry-me', caller = EMPLOYEE) =>
      world.submitProposal.execute({ caller, submission, idempotency: { key, respond } });

    it('answers a retry with the same body with the first response, and stores one proposal', async () => {
      const first = await submit();
      const retry = await submit(aSubmission());

      expect(first.replayed).toBe(false);
      const id = first.replayed ? '' : first.result.proposal.id;
      expect(retry).toEqual({ replayed: true, response: { status: 201, body: { id, status: 'PROPOSED' } } });
      expect(world.proposals.all()).toHaveLength(1);
      expect(world.notifier.messages()).toHaveLength(1);
    });

    it('treats the same body in another key order, or with nulls left out, as the same request', async () => {
      await submit();
      const { resubmissionOf: _omitted, ...withoutNull } = aSubmission();
      const reordered = Object.fromEntries(Object.entries(withoutNull).reverse()) as typeof withoutNull;

      expect((await submit(reordered)).replayed).toBe(true);
    });

    it('refuses the same key with a different body with idempotency_conflict', async () => {
      await submit();

      const error = await submit(aSubmission({ amount: '120.00' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyConflict);
      expect(error).toMatchObject({ code: 'idempotency_conflict' });
      expect(world.proposals.all()).toHaveLength(1);
    });

    it('keeps a key for 24 hours, then runs the request again', async () => {
      await submit();
      world.clock.advance({ hours: 23, minutes: 59 });
      expect((await submit()).replayed).toBe(true);

      world.clock.advance({ minutes: 1 });
      expect((await submit()).replayed).toBe(false);
      expect(world.proposals.all()).toHaveLength(2);
    });

    it('scopes keys to company and actor', async () => {
      await submit();

      expect(
        (await submit(aSubmission(), 'retry-me', { ...EMPLOYEE, actor: 'someone.else@example.no' })).replayed,
      ).toBe(false);
      expect((await submit(aSubmission(), 'retry-me', { ...EMPLOYEE, company: OTHER_COMPANY })).replayed).toBe(false);
    });

    it("answers a retry with the first response even when the company's chart now refuses its account", async () => {
      // Accepted while the company had no chart; the chart fetched since has no account 7777.
      const first = await submit(aSubmission({ accountCode: '7777' }));
      await world.contexts.save(aCompanyContext());

      const retry = await submit(aSubmission({ accountCode: '7777' }));

      expect(retry).toEqual({ replayed: true, response: respond(first.replayed ? never() : first.result) });
      await expect(submit(aSubmission({ accountCode: '7777' }), 'a-new-key')).rejects.toBeInstanceOf(
        UnknownAccountCode,
      );
      expect(world.proposals.all()).toHaveLength(1);
    });

    it('scores a submission once, also when it takes over an expired key', async () => {
      await submit();
      world.clock.advance({ hours: 24 });
      const score = jest.spyOn(ConfidenceEngine.prototype, 'score');

      expect((await submit()).replayed).toBe(false);

      expect(score).toHaveBeenCalledTimes(1);
      score.mockRestore();
      expect(world.proposals.all()).toHaveLength(2);
    });

    it('answers a retried resubmission with its first response, though its chain position is taken now', async () => {
      const { proposal } = await submitted(world, aSubmission({ merchant: 'Some Supplier' }));
      const rejected = (
        await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id, reason: 'wrong amount' })
      ).proposal;
      const body = aSubmission({ merchant: 'Some Supplier', resubmissionOf: rejected.id });
      const first = await submit(body, 'resubmit-once');

      const retry = await submit(body, 'resubmit-once');

      expect(retry).toEqual({ replayed: true, response: respond(first.replayed ? never() : first.result) });
      expect(world.proposals.all()).toHaveLength(2);
    });

    it('leaves the key unused when the request fails, so a retry runs it', async () => {
      await expect(submit(aSubmission({ resubmissionOf: 'no-such-proposal' }))).rejects.toBeInstanceOf(NotFound);

      expect(world.idempotencyKeys.size).toBe(0);
    });
  });
  describe('a possible duplicate', () => {
    beforeEach(async () => {
      await world.patterns.save(aPattern({ approvals: 14 }), null);
    });

    it('holds the same receipt sent again for review, naming the earlier proposal', async () => {
      const first = await submitted(world, aSubmission());
      expect(first.proposal.status).toBe('APPROVED');

      const again = await submitted(world, aSubmission({ date: '2026-10-02', amount: '120.00' }));

      expect(again.proposal).toMatchObject({ status: 'PROPOSED', route: 'review_required', autoApproved: false });
      expect(again.proposal.confidence).toBeLessThanOrEqual(0.5);
      expect(again.proposal.reasons.join(' ')).toContain(
        `possible duplicate of proposal ${first.proposal.id} (Spotify AB, NOK 119.00, 2026-11-20, APPROVED): the same receipt`,
      );
    });

    it('holds the same merchant (as a card statement writes it), amount and a date a day off', async () => {
      const first = await submitted(world, aSubmission());

      const again = await submitted(
        world,
        aRepeatSubmission(1, { merchant: 'SPOTIFY AB *P2B9C1X', date: '2026-11-21' }),
      );

      expect(again.proposal.status).toBe('PROPOSED');
      expect(again.proposal.reasons.join(' ')).toContain(`possible duplicate of proposal ${first.proposal.id}`);
    });

    it('holds a supplier invoice sent again for review, naming the earlier proposal, whatever its amount and date', async () => {
      const [learnt] = await world.patterns.findCandidates(TEST_COMPANY, 'spotify');
      await world.patterns.save({ ...learnt, supplierOrganizationNumber: '923609016', version: 2 }, 1);
      const invoice = (n: number, invoiceNumber: string) =>
        aRepeatSubmission(n, {
          kind: 'supplier_invoice',
          supplier: { name: 'Spotify AB', organizationNumber: '923609016' },
          invoiceNumber,
          dueDate: '2026-12-31',
          amount: `${100 + n}.00`,
        });
      const first = await submitted(world, invoice(4, 'F-1001'));
      expect(first.proposal.status).toBe('APPROVED');

      const again = await submitted(world, invoice(1, 'F-1001'));
      const next = await submitted(world, invoice(2, 'F-1002'));

      expect(again.proposal).toMatchObject({ status: 'PROPOSED', route: 'review_required', autoApproved: false });
      expect(again.proposal.reasons.join(' ')).toContain(
        `possible duplicate of proposal ${first.proposal.id} (Spotify AB, NOK 104.00, 2026-10-23, APPROVED): the same supplier invoice`,
      );
      expect(next.proposal).toMatchObject({ status: 'APPROVED', autoApproved: true });
    });

    it('does not flag a monthly subscription, nor repeat a rejected proposal', async () => {
      const rejected = await submitted(world, aSubmission({ merchant: 'Brand New Supplier AS' }));
      await world.rejectProposal.execute({ caller: ACCOUNTANT, proposalId: rejected.proposal.id, reason: 'wrong' });
      await submitted(world, aSubmission({ date: '2026-10-20' }));

      const corrected = await submitted(
        world,
        aRepeatSubmission(9, { merchant: 'Brand New Supplier AS', date: '2026-11-20' }),
      );
      const nextMonth = await submitted(world, aRepeatSubmission(1, { date: '2026-11-20' }));

      expect(corrected.proposal.reasons.join(' ')).not.toMatch(/duplicate/);
      expect(nextMonth.proposal).toMatchObject({ status: 'APPROVED', autoApproved: true });
    });

    it('holds the same receipt in other bytes: an image with two bytes appended (dated within three days), a PDF saved again (at any date), whatever the amount and merchant', async () => {
      const png = await receiptImage({ seed: 3 });
      const pdf = receiptPdf({ note: 'the Oslo taxi' });
      const image = (bytes: Buffer) => ({
        filename: 'r.png',
        contentType: 'image/png',
        dataBase64: bytes.toString('base64'),
      });
      const document = (bytes: Uint8Array) => ({
        filename: 'r.pdf',
        contentType: 'application/pdf',
        dataBase64: Buffer.from(bytes).toString('base64'),
      });
      const first = await submitted(world, aSubmission({ receipt: image(png) }));
      const firstPdf = await submitted(world, aSubmission({ date: '2026-09-01', receipt: document(pdf) }));

      const again = await submitted(
        world,
        aSubmission({
          merchant: 'Another Name AS',
          date: '2026-11-18',
          amount: '119.01',
          receipt: image(Buffer.concat([png, Buffer.from('\n\n')])),
        }),
      );
      const resaved = await (await PDFDocument.load(pdf)).save({ useObjectStreams: true });
      const againPdf = await submitted(
        world,
        aSubmission({ date: '2026-07-01', amount: '1.00', receipt: document(resaved) }),
      );

      expect(again.proposal.status).toBe('PROPOSED');
      expect(again.proposal.reasons.join(' ')).toContain(
        `possible duplicate of proposal ${first.proposal.id} (Spotify AB, NOK 119.00, 2026-11-20, APPROVED): the same receipt (the same image or PDF content in another file)`,
      );
      expect(againPdf.proposal.status).toBe('PROPOSED');
      expect(againPdf.proposal.reasons.join(' ')).toContain(`possible duplicate of proposal ${firstPdf.proposal.id}`);
    });

    it('holds the same purchase dated two days apart, and sent again in EUR with its NOK amount', async () => {
      const first = await submitted(world, aSubmission());

      const later = await submitted(world, aRepeatSubmission(1, { date: '2026-11-18' }));
      const inEuro = await submitted(
        world,
        aRepeatSubmission(2, {
          date: '2026-11-20',
          currency: 'EUR',
          amount: '10.20',
          amountNok: '119.00',
          vatTreatment: 'foreign_no_deduction',
        }),
      );

      for (const held of [later, inEuro]) {
        expect(held.proposal.status).toBe('PROPOSED');
        expect(held.proposal.reasons.join(' ')).toContain(`possible duplicate of proposal ${first.proposal.id}`);
      }
    });

    it('only looks at the last 12 months and at the own company', async () => {
      await submitted(world, aSubmission());
      await submitted(world, aSubmission(), { ...EMPLOYEE, company: OTHER_COMPANY });
      world.clock.advance({ days: 370 });

      const again = await submitted(world, aSubmission());

      expect(again.proposal.reasons.join(' ')).not.toMatch(/duplicate/);
    });
  });

  describe("the chart's rules", () => {
    const requiringDepartment = () => {
      const context = aCompanyContext();
      return {
        ...context,
        departments: [{ id: '7', name: 'Salg', number: '20' }],
        accounts: context.accounts.map((account) =>
          account.code === '6540'
            ? {
                ...account,
                rules: {
                  lockedVatCode: '1',
                  legalVatCodes: ['1'],
                  ledgerType: 'general' as const,
                  requiresDepartment: true,
                  requiresProject: false,
                  inactive: false,
                },
              }
            : account,
        ),
      };
    };

    it("posts on the submitter's default department where an account requires one", async () => {
      await world.contexts.save(requiringDepartment());
      await world.employees.save(
        TEST_COMPANY,
        SUBMITTER,
        {
          email: SUBMITTER,
          role: 'employee',
          externalIdentities: [],
          providerEmployeeId: null,
          defaultDepartmentId: '7',
        },
        world.clock.now(),
      );

      const { proposal } = await submitted(world, aSubmission());

      expect(proposal.departmentId).toBe('7');
    });

    it('refuses a proposal on an account requiring a department when nobody gives one, storing nothing', async () => {
      await world.contexts.save(requiringDepartment());

      await expect(world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission() })).rejects.toMatchObject(
        {
          code: 'department_required',
        },
      );
      expect(await world.proposals.findById(TEST_COMPANY, '00000000-0000-7000-8000-000000000001')).toBeNull();
    });

    it("refuses a VAT rate the account's lock does not allow, naming the account and the rule", async () => {
      await world.contexts.save(requiringDepartment());

      await expect(
        world.submitProposal.execute({ caller: EMPLOYEE, submission: aSubmission({ vatRate: '15' }) }),
      ).rejects.toMatchObject({ code: 'account_rule_violated', message: 'account 6540 only takes VAT code 1, not 11' });
    });
  });
});
