import { ConcurrencyConflict, Proposal, ProposalRepository } from '@app/domain';
import { aProposal } from '../mothers/proposal.mother';
import { companies, ContractOptions, uniqueId } from './contract-support';

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** A proposal of `companyId` with a fresh id (its own chain), optionally at another status or time. */
function proposalOf(companyId: string, overrides: Partial<Proposal> = {}): Proposal {
  const id = uniqueId();
  return { ...aProposal('PROPOSED', { companyId }), id, correlationId: id, ...overrides };
}

/** The ProposalRepository contract, run against the in-memory and the TypeORM adapters. */
export function describeProposalRepositoryContract(
  name: string,
  factory: () => ProposalRepository | Promise<ProposalRepository>,
  options: ContractOptions = {},
): void {
  describe(`ProposalRepository contract: ${name}`, () => {
    let repository: ProposalRepository;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      repository = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('finds an inserted proposal with every field intact', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);

      expect(await repository.findById(company, proposal.id)).toEqual(proposal);
    });

    it('keeps the fields an approval, a rejection and an execution set', async () => {
      const proposal = proposalOf(company, {
        status: 'EXECUTED',
        version: 3,
        approvedBy: 'kari@example.no',
        corrections: { accountCode: '6300', vatRate: '15' },
        executeAfter: new Date(T0),
        booking: { provider: 'fiken', bookingId: 'purchase-9' },
        lastExecutionError: null,
        autoApproved: false,
        resubmissionOf: uniqueId(),
      });
      await repository.insert(proposal);

      expect(await repository.findById(company, proposal.id)).toEqual(proposal);
    });

    it('does not find another company’s proposal', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);

      expect(await repository.findById(otherCompany, proposal.id)).toBeNull();
    });

    it('refuses to insert an id twice', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);

      await expect(repository.insert(proposal)).rejects.toBeInstanceOf(ConcurrencyConflict);
    });

    it('updates when the stored version is the expected one', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);
      const approved: Proposal = {
        ...proposal,
        status: 'APPROVED',
        version: 2,
        approvedBy: 'kari@example.no',
        executeAfter: new Date(T0),
      };

      await repository.update(approved, 1);

      expect(await repository.findById(company, proposal.id)).toEqual(approved);
    });

    it('refuses an update from a stale version with ConcurrencyConflict', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);
      await repository.update({ ...proposal, status: 'REJECTED', version: 2, rejectionReason: 'no' }, 1);

      await expect(repository.update({ ...proposal, status: 'APPROVED', version: 2 }, 1)).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      expect((await repository.findById(company, proposal.id))?.status).toBe('REJECTED');
    });

    it('lets exactly one of two concurrent updates from the same version win', async () => {
      const proposal = proposalOf(company);
      await repository.insert(proposal);

      const results = await Promise.allSettled([
        repository.update({ ...proposal, status: 'APPROVED', version: 2 }, 1),
        repository.update({ ...proposal, status: 'REJECTED', version: 2 }, 1),
      ]);

      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    });

    it('lists one company’s proposals currently in a status, oldest first, page by page', async () => {
      const pending = [0, 1, 2].map((i) => proposalOf(company, { submittedAt: new Date(T0 + i * 1000) }));
      for (const proposal of [...pending].reverse()) await repository.insert(proposal);
      await repository.insert(proposalOf(company, { status: 'REJECTED' }));
      await repository.insert(proposalOf(otherCompany));

      const first = await repository.listByStatus(company, 'PROPOSED', { limit: 2 });
      const second = await repository.listByStatus(company, 'PROPOSED', { limit: 2, cursor: first.nextCursor });

      expect(first.items.map((p) => p.id)).toEqual([pending[0].id, pending[1].id]);
      expect(second.items.map((p) => p.id)).toEqual([pending[2].id]);
      expect(second.nextCursor).toBeNull();
    });

    it('finds the duplicate candidates: same receipt, or same amount within the dates, not rejected, recent', async () => {
      const receipt = (sha256: string) => ({ filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1, sha256 });
      const base = { amount: 11900, date: '2026-11-20', submittedAt: new Date(T0) };
      const sameAmountNextDay = proposalOf(company, { ...base, date: '2026-11-21', receipt: receipt('1'.repeat(64)) });
      const sameReceipt = proposalOf(company, {
        ...base,
        amount: 500,
        date: '2026-03-01',
        receipt: receipt('f'.repeat(64)),
      });
      const rejected = proposalOf(company, { ...base, status: 'REJECTED', receipt: receipt('f'.repeat(64)) });
      const tooOld = proposalOf(company, { ...base, submittedAt: new Date(T0 - 400 * 86_400_000) });
      const otherAmount = proposalOf(company, { ...base, amount: 11901, receipt: null });
      const monthLater = proposalOf(company, { ...base, date: '2026-12-20', receipt: null });
      const elsewhere = proposalOf(otherCompany, { ...base, receipt: receipt('f'.repeat(64)) });
      for (const p of [sameAmountNextDay, sameReceipt, rejected, tooOld, otherAmount, monthLater, elsewhere]) {
        await repository.insert(p);
      }

      const found = await repository.findDuplicateCandidates(company, {
        receiptSha256: 'f'.repeat(64),
        amount: 11900,
        dateFrom: '2026-11-19',
        dateTo: '2026-11-21',
        submittedSince: new Date(T0 - 365 * 86_400_000),
      });

      expect(found.map((p) => p.id).sort()).toEqual([sameAmountNextDay.id, sameReceipt.id].sort());
      expect(found.find((p) => p.id === sameReceipt.id)).toEqual(sameReceipt);
    });

    it('lists approved proposals whose execution is due', async () => {
      const due = proposalOf(company, { status: 'APPROVED', version: 2, executeAfter: new Date(T0 - 60_000) });
      const later = proposalOf(company, { status: 'APPROVED', version: 2, executeAfter: new Date(T0 + 60_000) });
      const executed = proposalOf(company, { status: 'EXECUTED', version: 3, executeAfter: new Date(T0 - 60_000) });
      for (const proposal of [due, later, executed]) await repository.insert(proposal);

      const listed = await repository.listDueForExecution(new Date(T0), 1000);

      const ours = listed.filter((p) => p.companyId === company).map((p) => p.id);
      expect(ours).toEqual([due.id]);
    });
  });
}
