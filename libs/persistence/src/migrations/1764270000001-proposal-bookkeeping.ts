import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a proposal says it bought and how it was paid (docs/bookkeeping.md), and what the provider
 * booked for it:
 *
 * - `proposals.bookkeeping`: one jsonb object with `paidWith`, `vatTreatment`, `lines` (amounts in
 *   minor units), `supplier`, `invoiceNumber`, `dueDate` and `departmentId`. One column rather than
 *   seven: the fields are read and written together with the proposal, never queried one by one
 *   (duplicates of a supplier invoice are found through their own index below), and a line list is
 *   a document, not a relation. Null on the proposals stored before: single-line NOK expenses paid
 *   from the bank with domestic VAT, which is what the mapper makes of a null.
 * - `proposals.read_back`: the postings planned at execution and read back from the provider, their
 *   differences, or why the read-back failed; null until executed.
 * - an index on the supplier's organisation number and the invoice number, for the look-up of the
 *   same supplier invoice sent twice.
 */
export class ProposalBookkeeping1764270000001 implements MigrationInterface {
  name = 'ProposalBookkeeping1764270000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE proposals
        ADD COLUMN bookkeeping jsonb NULL CHECK (jsonb_typeof(bookkeeping) = 'object'),
        ADD COLUMN read_back jsonb NULL CHECK (jsonb_typeof(read_back) = 'object')`);
    await q.query(`
      CREATE INDEX proposals_supplier_invoice_idx
        ON proposals (company_id, (bookkeeping #>> '{supplier,organizationNumber}'), (bookkeeping ->> 'invoiceNumber'))
        WHERE kind = 'supplier_invoice'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_supplier_invoice_idx');
    await q.query('ALTER TABLE proposals DROP COLUMN read_back, DROP COLUMN bookkeeping');
  }
}
