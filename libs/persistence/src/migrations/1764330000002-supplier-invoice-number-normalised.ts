import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A supplier invoice's number as invoices are told apart, in SQL: normalizeInvoiceNumber
 * (libs/domain/src/duplicates/possible-duplicates.ts) — spaces, tabs and line breaks dropped, ASCII
 * letters upper-cased. `translate` deletes the characters of its second argument that have no
 * counterpart in the third (the white space at its end).
 */
export const INVOICE_NUMBER_SQL = `translate(bookkeeping ->> 'invoiceNumber', 'abcdefghijklmnopqrstuvwxyz ' || chr(9) || chr(10) || chr(13), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')`;

/**
 * The supplier-invoice look-up (ProposalRepository.findSupplierInvoices: the twin check at
 * submission and approval) compares normalised invoice numbers, as the executor's reservation
 * does: its index is rebuilt on the normalised expression.
 */
export class SupplierInvoiceNumberNormalised1764330000002 implements MigrationInterface {
  name = 'SupplierInvoiceNumberNormalised1764330000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_supplier_invoice_idx');
    await q.query(`
      CREATE INDEX proposals_supplier_invoice_idx
        ON proposals (company_id, (bookkeeping #>> '{supplier,organizationNumber}'), (${INVOICE_NUMBER_SQL}))
        WHERE kind = 'supplier_invoice'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_supplier_invoice_idx');
    await q.query(`
      CREATE INDEX proposals_supplier_invoice_idx
        ON proposals (company_id, (bookkeeping #>> '{supplier,organizationNumber}'), (bookkeeping ->> 'invoiceNumber'))
        WHERE kind = 'supplier_invoice'`);
  }
}
