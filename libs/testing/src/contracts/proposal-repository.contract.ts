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

    it('keeps a reimbursement marked on an executed employee outlay', async () => {
      const proposal = proposalOf(company, {
        status: 'EXECUTED',
        paidWith: 'employee',
        booking: { provider: 'tripletex', bookingId: 'voucher-3' },
      });
      await repository.insert(proposal);
      const reimbursed: Proposal = {
        ...proposal,
        version: proposal.version + 1,
        reimbursement: {
          paidOn: '2026-11-21',
          reference: 'TR-77',
          markedBy: 'kari@example.no',
          markedAt: new Date(T0),
        },
      };
      await repository.update(reimbursed, proposal.version);

      expect(await repository.findById(company, proposal.id)).toEqual(reimbursed);
    });

    it('lists the executed employee outlays, open or paid, by employee (any letter case), page by page, with totals', async () => {
      const at = (i: number) => new Date(T0 + i * 1000);
      const outlay = (i: number, overrides: Partial<Proposal> = {}) =>
        proposalOf(company, {
          status: 'EXECUTED',
          paidWith: 'employee',
          submittedBy: 'kari@example.no',
          submittedAt: at(i),
          amount: 10_050 * (i + 1),
          ...overrides,
        });
      const paid = { paidOn: '2026-11-21', reference: null, markedBy: 'anne@example.no', markedAt: new Date(T0) };
      const kari = [outlay(0), outlay(1), outlay(2, { reimbursement: paid })];
      const ola = outlay(3, { submittedBy: 'Ola@Example.no', currency: 'EUR', amount: 1_000, amountNok: 11_725 });
      const notListed = [
        outlay(4, { paidWith: 'bank' }),
        outlay(5, { paidWith: 'company_card' }),
        outlay(6, { status: 'APPROVED' }),
        outlay(7, { status: 'PROPOSED' }),
      ];
      for (const p of [...notListed, ola, ...kari]) await repository.insert(p);
      await repository.insert(proposalOf(otherCompany, { status: 'EXECUTED', paidWith: 'employee' }));
      const ids = async (filter: Parameters<ProposalRepository['listReimbursements']>[1]) =>
        (await repository.listReimbursements(company, filter, { limit: 200 })).items.map((p) => p.id);

      expect(await ids({ status: 'open' })).toEqual([kari[0], kari[1], ola].map((p) => p.id));
      expect(await ids({ status: 'paid' })).toEqual([kari[2].id]);
      expect(await ids({ status: 'all', employee: 'KARI@example.no' })).toEqual(kari.map((p) => p.id));
      const first = await repository.listReimbursements(company, { status: 'all' }, { limit: 3 });
      const second = await repository.listReimbursements(
        company,
        { status: 'all' },
        { limit: 3, cursor: first.nextCursor },
      );
      expect([...first.items, ...second.items].map((p) => p.id)).toEqual([...kari, ola].map((p) => p.id));
      expect(second.nextCursor).toBeNull();

      expect(await repository.reimbursementTotals(company, { status: 'open' })).toEqual([
        { employee: 'kari@example.no', count: 2, amountNok: 10_050 + 20_100 },
        { employee: 'ola@example.no', count: 1, amountNok: 11_725 },
      ]);
      expect(await repository.reimbursementTotals(company, { status: 'paid', employee: 'ola@example.no' })).toEqual([]);
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

    it('lists one company’s proposals by status, submitter (any letter case) and accounting dates, oldest first, page by page', async () => {
      const at = (i: number) => new Date(T0 + i * 1000);
      const kari = [0, 1, 2].map((i) =>
        proposalOf(company, { submittedBy: 'kari@example.no', date: `2026-11-1${i}`, submittedAt: at(i) }),
      );
      const ola = proposalOf(company, { submittedBy: 'ola@example.no', date: '2026-11-11', submittedAt: at(3) });
      const rejected = proposalOf(company, {
        submittedBy: 'Kari@Example.no',
        status: 'REJECTED',
        date: '2026-11-11',
        submittedAt: at(4),
      });
      for (const p of [rejected, ola, ...[...kari].reverse()]) await repository.insert(p);
      await repository.insert(proposalOf(otherCompany, { submittedBy: 'kari@example.no', date: '2026-11-11' }));
      const ids = async (filter: Parameters<ProposalRepository['list']>[1]) =>
        (await repository.list(company, filter, { limit: 200 })).items.map((p) => p.id);

      expect(await ids({})).toEqual([...kari, ola, rejected].map((p) => p.id));
      expect(await ids({ submittedBy: 'KARI@example.no' })).toEqual([...kari, rejected].map((p) => p.id));
      expect(await ids({ status: 'REJECTED' })).toEqual([rejected.id]);
      expect(await ids({ dateFrom: '2026-11-11', dateTo: '2026-11-11' })).toEqual(
        [kari[1], ola, rejected].map((p) => p.id),
      );
      expect(await ids({ submittedBy: 'kari@example.no', status: 'PROPOSED', dateFrom: '2026-11-11' })).toEqual(
        [kari[1], kari[2]].map((p) => p.id),
      );
      const first = await repository.list(company, {}, { limit: 2 });
      const second = await repository.list(company, {}, { limit: 2, cursor: first.nextCursor });
      const third = await repository.list(company, {}, { limit: 2, cursor: second.nextCursor });
      expect([...first.items, ...second.items, ...third.items].map((p) => p.id)).toEqual(
        [...kari, ola, rejected].map((p) => p.id),
      );
      expect(third.nextCursor).toBeNull();
    });

    it('finds the supplier invoices of one supplier and invoice number, not rejected, oldest first', async () => {
      const supplier = { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null };
      const invoice = { kind: 'supplier_invoice', paidWith: null, supplier, invoiceNumber: 'F-1001' } as const;
      const first = proposalOf(company, { ...invoice, submittedAt: new Date(T0) });
      const second = proposalOf(company, { ...invoice, status: 'EXECUTED', submittedAt: new Date(T0 + 60_000) });
      const rejected = proposalOf(company, { ...invoice, status: 'REJECTED', submittedAt: new Date(T0 + 1) });
      const otherNumber = proposalOf(company, { ...invoice, invoiceNumber: 'F-1002' });
      const otherSupplier = proposalOf(company, {
        ...invoice,
        supplier: { ...supplier, organizationNumber: '974760673' },
      });
      const elsewhere = proposalOf(otherCompany, invoice);
      for (const p of [second, first, rejected, otherNumber, otherSupplier, elsewhere]) await repository.insert(p);

      const found = await repository.findSupplierInvoices(company, '923609016', 'F-1001');

      expect(found.map((p) => p.id)).toEqual([first.id, second.id]);
      expect(found[1]).toEqual(second);
      expect(await repository.findSupplierInvoices(company, '923609016', 'F-1003')).toEqual([]);
      expect((await repository.findSupplierInvoices(company, '923609016', ' f-10 01\t')).map((p) => p.id)).toEqual([
        first.id,
        second.id,
      ]);
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
