import type { EntityManager } from 'typeorm';
import {
  ConcurrencyConflict,
  Page,
  PageRequest,
  Proposal,
  ProposalRepository,
  ProposalStatus,
  type ProposalListFilter,
  type ReimbursementFilter,
  type ReimbursementTotal,
} from '@app/domain';
import { assertLimit, decodeCursor, toPage } from '../shared/keyset-cursor';
import { conflictOnUniqueViolation, execute, insertInto, select, StatementParameters, toNumber } from '../shared/sql';
import { supplierInvoicesSelect } from './proposal-queries';
import {
  PROPOSAL_COLUMN_NAMES,
  PROPOSAL_SELECT,
  proposalFromRecord,
  proposalParameters,
  type ProposalRecord,
} from './proposal.mapper';

/** Every column but the key ones, for UPDATE … SET. */
const assignments = PROPOSAL_COLUMN_NAMES.map((column, i) => ({ column, i }))
  .filter(({ column }) => column !== 'id' && column !== 'company_id')
  .map(({ column, i }) => `${column} = $${i + 1}`)
  .join(', ');

/**
 * The ProposalRepository over `proposals`, the read model kept beside the event store.
 *
 * Optimistic concurrency: `insert` relies on the primary key, `update` is a compare-and-set on
 * `version` in one UPDATE (on PostgreSQL a concurrent updater blocks on the row lock, then
 * re-checks the WHERE and finds the new version): the loser gets ConcurrencyConflict.
 * Every read is scoped by company; another company's id reads as absent.
 */
export class TypeOrmProposalRepository extends ProposalRepository {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async findById(companyId: string, id: string): Promise<Proposal | null> {
    const [row] = await select<ProposalRecord>(
      this.manager,
      `SELECT ${PROPOSAL_SELECT} FROM proposals WHERE company_id = $1 AND id = $2`,
      [companyId, id],
    );
    return row ? proposalFromRecord(row) : null;
  }

  async insert(proposal: Proposal): Promise<void> {
    await conflictOnUniqueViolation(
      ['proposals_pkey'],
      () => `proposal ${proposal.id} already exists`,
      () => this.manager.query(insertInto('proposals', PROPOSAL_COLUMN_NAMES, 1), proposalParameters(proposal)),
    );
  }

  async update(proposal: Proposal, expectedVersion: number): Promise<void> {
    const parameters = [...proposalParameters(proposal), expectedVersion];
    const { affected } = await execute(
      this.manager,
      `UPDATE proposals SET ${assignments}
        WHERE id = $1 AND company_id = $2 AND version = $${parameters.length}`,
      parameters,
    );
    if (affected !== 1) {
      throw new ConcurrencyConflict(
        `proposal ${proposal.id} changed meanwhile: it is no longer at version ${expectedVersion}`,
      );
    }
  }

  async listByStatus(companyId: string, status: ProposalStatus, page: PageRequest): Promise<Page<Proposal>> {
    assertLimit(page.limit);
    const parameters: unknown[] = [companyId, status, page.limit + 1];
    let after = '';
    if (page.cursor) {
      const [submittedAtMs, id] = decodeCursor(page.cursor, ['number', 'string'] as const);
      parameters.push(new Date(submittedAtMs), id);
      after = 'AND (submitted_at, id) > ($4, $5)';
    }
    const rows = await select<ProposalRecord>(
      this.manager,
      `SELECT ${PROPOSAL_SELECT} FROM proposals
        WHERE company_id = $1 AND status = $2 ${after}
        ORDER BY submitted_at, id LIMIT $3`,
      parameters,
    );
    return toPage(rows, page.limit, proposalFromRecord, (row) => [
      (row.submitted_at as Date).getTime(),
      row.id as string,
    ]);
  }

  async list(companyId: string, filter: ProposalListFilter, page: PageRequest): Promise<Page<Proposal>> {
    const parameters: unknown[] = [companyId];
    const where = ['company_id = $1'];
    const add = (condition: (n: string) => string, value: unknown) => {
      parameters.push(value);
      where.push(condition(`$${parameters.length}`));
    };
    if (filter.status !== undefined) add((n) => `status = ${n}`, filter.status);
    if (filter.submittedBy !== undefined) add((n) => `lower(submitted_by) = lower(${n})`, filter.submittedBy);
    if (filter.dateFrom !== undefined) add((n) => `accounting_date >= ${n}::date`, filter.dateFrom);
    if (filter.dateTo !== undefined) add((n) => `accounting_date <= ${n}::date`, filter.dateTo);
    return this.pageOf(where, parameters, page);
  }

  async listReimbursements(companyId: string, filter: ReimbursementFilter, page: PageRequest): Promise<Page<Proposal>> {
    const { where, parameters } = reimbursementWhere(companyId, filter);
    return this.pageOf(where, parameters, page);
  }

  /**
   * One keyset page of the proposals matching `where` (over `parameters`), oldest submission first:
   * the cursor is the last row's (submitted_at, id).
   */
  private async pageOf(where: string[], parameters: unknown[], page: PageRequest): Promise<Page<Proposal>> {
    assertLimit(page.limit);
    parameters.push(page.limit + 1);
    const limit = `$${parameters.length}`;
    if (page.cursor) {
      const [submittedAtMs, id] = decodeCursor(page.cursor, ['number', 'string'] as const);
      parameters.push(new Date(submittedAtMs), id);
      where.push(`(submitted_at, id) > ($${parameters.length - 1}, $${parameters.length})`);
    }
    const rows = await select<ProposalRecord>(
      this.manager,
      `SELECT ${PROPOSAL_SELECT} FROM proposals WHERE ${where.join(' AND ')} ORDER BY submitted_at, id LIMIT ${limit}`,
      parameters,
    );
    return toPage(rows, page.limit, proposalFromRecord, (row) => [
      (row.submitted_at as Date).getTime(),
      row.id as string,
    ]);
  }

  async reimbursementTotals(companyId: string, filter: ReimbursementFilter): Promise<ReimbursementTotal[]> {
    const { where, parameters } = reimbursementWhere(companyId, filter);
    const rows = await select<{ employee: string; count: unknown; amount_nok: unknown }>(
      this.manager,
      `SELECT lower(btrim(submitted_by)) AS employee, count(*) AS count, sum(COALESCE(amount_nok, amount)) AS amount_nok
         FROM proposals WHERE ${where.join(' AND ')}
        GROUP BY 1 ORDER BY 1`,
      parameters,
    );
    return rows.map((row) => ({
      employee: row.employee,
      count: toNumber(row.count),
      amountNok: toNumber(row.amount_nok),
    }));
  }

  async findSupplierInvoices(
    companyId: string,
    organizationNumber: string,
    invoiceNumber: string,
  ): Promise<Proposal[]> {
    const parameters = new StatementParameters();
    const { sql } = supplierInvoicesSelect(parameters.bind, companyId, organizationNumber, invoiceNumber);
    return (await select<ProposalRecord>(this.manager, sql, parameters.values)).map(proposalFromRecord);
  }

  async listDueForExecution(now: Date, limit: number): Promise<Proposal[]> {
    const rows = await select<ProposalRecord>(
      this.manager,
      `SELECT ${PROPOSAL_SELECT} FROM proposals
        WHERE status = 'APPROVED' AND execute_after <= $1
        ORDER BY execute_after, id LIMIT $2`,
      [now, limit],
    );
    return rows.map(proposalFromRecord);
  }
}

/** The executed employee outlays of `filter` (the predicate of proposals_reimbursements_idx, then the filter). */
function reimbursementWhere(
  companyId: string,
  filter: ReimbursementFilter,
): { where: string[]; parameters: unknown[] } {
  const parameters: unknown[] = [companyId];
  const where = [
    'company_id = $1',
    "status = 'EXECUTED'",
    "kind = 'expense'",
    "(bookkeeping ->> 'paidWith') = 'employee'",
  ];
  if (filter.status === 'open') where.push('reimbursement IS NULL');
  if (filter.status === 'paid') where.push('reimbursement IS NOT NULL');
  if (filter.employee !== undefined) {
    parameters.push(filter.employee);
    where.push(`lower(btrim(submitted_by)) = lower(btrim($${parameters.length}))`);
  }
  return { where, parameters };
}
