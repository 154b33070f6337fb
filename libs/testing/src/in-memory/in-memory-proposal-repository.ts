import {
  ConcurrencyConflict,
  DUPLICATE_CANDIDATE_LIMIT,
  Page,
  PageRequest,
  Proposal,
  ProposalRepository,
  ProposalStatus,
  actorKey,
  nokAmountOf,
  normalizeInvoiceNumber,
  sameActor,
  sameReceipt,
  type DuplicateCandidateQuery,
  type ProposalListFilter,
  type ReimbursementFilter,
  type ReimbursementTotal,
} from '@app/domain';
import { assertLimit, pageAfter } from './cursor';
import { copy, Snapshottable } from './snapshottable';

/** ProposalRepository in a map. Same contract as the TypeORM adapter (proposal-repository.contract.ts). */
export class InMemoryProposalRepository extends ProposalRepository implements Snapshottable {
  private proposals = new Map<string, Proposal>();

  async findById(companyId: string, id: string): Promise<Proposal | null> {
    const proposal = this.proposals.get(keyOf(companyId, id));
    return proposal ? copy(proposal) : null;
  }

  async insert(proposal: Proposal): Promise<void> {
    if ([...this.proposals.values()].some((stored) => stored.id === proposal.id)) {
      throw new ConcurrencyConflict(`proposal ${proposal.id} already exists`);
    }
    this.proposals.set(keyOf(proposal.companyId, proposal.id), copy(proposal));
  }

  async update(proposal: Proposal, expectedVersion: number): Promise<void> {
    const key = keyOf(proposal.companyId, proposal.id);
    const stored = this.proposals.get(key);
    if (!stored || stored.version !== expectedVersion) {
      throw new ConcurrencyConflict(
        `proposal ${proposal.id} changed meanwhile: expected version ${expectedVersion}, found ${stored ? stored.version : 'none'}`,
      );
    }
    this.proposals.set(key, copy(proposal));
  }

  async listByStatus(companyId: string, status: ProposalStatus, page: PageRequest): Promise<Page<Proposal>> {
    assertLimit(page.limit);
    const sorted = [...this.proposals.values()]
      .filter((proposal) => proposal.companyId === companyId && proposal.status === status)
      .sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const result = pageAfter(sorted, (p) => [p.submittedAt.getTime(), p.id], page.limit, page.cursor);
    return { items: result.items.map(copy), nextCursor: result.nextCursor };
  }

  async list(companyId: string, filter: ProposalListFilter, page: PageRequest): Promise<Page<Proposal>> {
    assertLimit(page.limit);
    const sorted = [...this.proposals.values()]
      .filter(
        (p) =>
          p.companyId === companyId &&
          (filter.status === undefined || p.status === filter.status) &&
          (filter.submittedBy === undefined || sameActor(p.submittedBy, filter.submittedBy)) &&
          (filter.dateFrom === undefined || p.date >= filter.dateFrom) &&
          (filter.dateTo === undefined || p.date <= filter.dateTo),
      )
      .sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const result = pageAfter(sorted, (p) => [p.submittedAt.getTime(), p.id], page.limit, page.cursor);
    return { items: result.items.map(copy), nextCursor: result.nextCursor };
  }

  async listReimbursements(companyId: string, filter: ReimbursementFilter, page: PageRequest): Promise<Page<Proposal>> {
    assertLimit(page.limit);
    const sorted = this.reimbursements(companyId, filter).sort(
      (a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const result = pageAfter(sorted, (p) => [p.submittedAt.getTime(), p.id], page.limit, page.cursor);
    return { items: result.items.map(copy), nextCursor: result.nextCursor };
  }

  async reimbursementTotals(companyId: string, filter: ReimbursementFilter): Promise<ReimbursementTotal[]> {
    const totals = new Map<string, { count: number; amountNok: number }>();
    for (const p of this.reimbursements(companyId, filter)) {
      const key = actorKey(p.submittedBy);
      const total = totals.get(key) ?? { count: 0, amountNok: 0 };
      totals.set(key, { count: total.count + 1, amountNok: total.amountNok + nokAmountOf(p) });
    }
    return [...totals.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([employee, total]) => ({ employee, ...total }));
  }

  private reimbursements(companyId: string, filter: ReimbursementFilter): Proposal[] {
    return [...this.proposals.values()].filter(
      (p) =>
        p.companyId === companyId &&
        p.status === 'EXECUTED' &&
        p.kind === 'expense' &&
        p.paidWith === 'employee' &&
        (filter.status === 'all' || (filter.status === 'paid') === Boolean(p.reimbursement)) &&
        (filter.employee === undefined || sameActor(p.submittedBy, filter.employee)),
    );
  }

  /** A submission's possible duplicates among proposals (InMemorySubmissionReads; DuplicateCandidateQuery). */
  async findDuplicateCandidates(companyId: string, query: DuplicateCandidateQuery): Promise<Proposal[]> {
    return [...this.proposals.values()]
      .filter(
        (p) =>
          p.companyId === companyId &&
          p.status !== 'REJECTED' &&
          p.submittedAt.getTime() >= query.submittedSince.getTime() &&
          ((p.merchantKey === query.merchantKey &&
            nokAmountOf(p) >= query.amountMin &&
            nokAmountOf(p) <= query.amountMax &&
            p.date >= query.dateFrom &&
            p.date <= query.dateTo) ||
            (query.receiptSha256 !== null && p.receipt?.sha256 === query.receiptSha256) ||
            (query.receiptFingerprint !== null &&
              p.receiptFingerprint !== null &&
              sameReceipt(p.receiptFingerprint, query.receiptFingerprint))),
      )
      .sort((a, b) => b.submittedAt.getTime() - a.submittedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, DUPLICATE_CANDIDATE_LIMIT)
      .map(copy);
  }

  async findSupplierInvoices(
    companyId: string,
    organizationNumber: string,
    invoiceNumber: string,
  ): Promise<Proposal[]> {
    return [...this.proposals.values()]
      .filter(
        (p) =>
          p.companyId === companyId &&
          p.kind === 'supplier_invoice' &&
          p.status !== 'REJECTED' &&
          p.supplier?.organizationNumber === organizationNumber &&
          p.invoiceNumber !== null &&
          normalizeInvoiceNumber(p.invoiceNumber) === normalizeInvoiceNumber(invoiceNumber),
      )
      .sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(copy);
  }

  async listDueForExecution(now: Date, limit: number): Promise<Proposal[]> {
    return [...this.proposals.values()]
      .filter((p) => p.status === 'APPROVED' && p.executeAfter !== null && p.executeAfter.getTime() <= now.getTime())
      .sort((a, b) => (a.executeAfter as Date).getTime() - (b.executeAfter as Date).getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  /** Every stored proposal: for assertions. */
  all(): Proposal[] {
    return [...this.proposals.values()].map(copy);
  }

  snapshot(): unknown {
    return new Map(this.proposals);
  }

  restore(snapshot: unknown): void {
    this.proposals = new Map(snapshot as Map<string, Proposal>);
  }
}

function keyOf(companyId: string, id: string): string {
  return `${companyId}\u0000${id}`;
}
