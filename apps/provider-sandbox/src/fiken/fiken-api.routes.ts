import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response, Router } from 'express';
import { indexRange } from '../seed/ledger';
import { isIsoDate } from '../shared/dates';
import { queryBool, queryString, receiptUpload } from '../shared/http';
import type { FikenCompany } from './fiken-company';
import { dateBounds, dateFilterOf, fikenCallOf, matchesDate, sendFikenMessage, sendPage } from './fiken-http';
import { attachmentFor, seededFikenInvoice, seededJournalEntry } from './fiken-ledger';
import type { FikenContact, FikenJournalEntry } from './fiken-model';
import { historyPurchasesOf } from './fiken-history';
import { buildPurchase, purchaseView } from './fiken-purchases';
import type { FikenState } from './fiken-state';

/** "The filename. Must end with either .png, .jpeg, .jpg, .gif or .pdf" */
const RECEIPT_EXTENSIONS = ['.png', '.jpeg', '.jpg', '.gif', '.pdf'];
/** `GET /purchases` declares `sortBy` as an enum of these two only. */
const PURCHASE_SORTS = ['date asc', 'date desc'];

function companyView(company: FikenCompany): Record<string, unknown> {
  return {
    name: company.name,
    slug: company.slug,
    organizationNumber: company.organizationNumber,
    vatType: 'yearly',
    address: { streetAddress: 'Storgata 1', city: 'Oslo', postCode: '0155', country: 'Norge' },
    email: `post@${company.slug}.no`,
    creationDate: '2020-01-01',
    hasApiAccess: true,
    testCompany: true,
    accountingStartDate: '2020-01-01',
  };
}

/** Accounts whose 4-digit number lies in [fromAccount, toAccount]. */
function inAccountRange(code: string, req: Request): boolean {
  const number = Number(code.slice(0, 4));
  const from = Number(queryString(req, 'fromAccount') ?? 0);
  const to = Number(queryString(req, 'toAccount') ?? 9999);
  return number >= from && number <= to;
}

/** Journal entries of a company in creation order: the seeded ledger, then purchases' entries. */
function journalEntries(
  state: FikenState,
  company: FikenCompany,
  apiBase: string,
  bounds: { from?: string; to?: string },
) {
  const range = indexRange(company.ledger, bounds.from, bounds.to);
  const booked = state.purchasesOf(company.index).map((p) => p.journalEntry);
  return {
    seededCount: range.to - range.from,
    at: (i: number): FikenJournalEntry => seededJournalEntry(company, range.from + i, apiBase),
    booked,
  };
}

/** A contact as GET /contacts returns it: its sub-ledger as `supplierAccountCode` / `customerAccountCode`. */
function contactView(contact: FikenContact & { supplier: boolean; customer: boolean }): Record<string, unknown> {
  const { account, inactive, ...fields } = contact;
  return {
    ...fields,
    ...(contact.supplier ? { supplierAccountCode: account } : { customerAccountCode: account }),
    inactive: inactive ?? false,
  };
}

export function registerFikenApiRoutes(router: Router, state: FikenState): void {
  router.get('/companies', (req, res) => {
    const { company } = fikenCallOf(res);
    sendPage(req, res, 1, () => companyView(company));
  });

  router.get('/companies/:slug', (_req, res) => {
    res.json(companyView(fikenCallOf(res).company));
  });

  // Not paged, as the real endpoint (the introduction's table of Fiken's documentation says accounts
  // are not paginated, although the definition declares page/pageSize): every account of the range in
  // one answer, whatever `page` and `pageSize` say; the declared Fiken-Api-* headers describe that
  // one page.
  router.get('/companies/:slug/accounts', (req, res) => {
    const { company } = fikenCallOf(res);
    const accounts = company.accounts.filter((a) => inAccountRange(a.code, req));
    res.set('Fiken-Api-Page', '0');
    res.set('Fiken-Api-Page-Size', String(accounts.length));
    res.set('Fiken-Api-Page-Count', '1');
    res.set('Fiken-Api-Result-Count', String(accounts.length));
    res.json(accounts);
  });

  router.get('/companies/:slug/accounts/:code', (req, res) => {
    const account = fikenCallOf(res).company.accounts.find((a) => a.code === req.params.code);
    if (!account) return sendFikenMessage(res, 404, `Account ${String(req.params.code)} not found`);
    res.json(account);
  });

  router.get('/companies/:slug/accountBalances', (req, res) => {
    const date = queryString(req, 'date');
    if (!date || !isIsoDate(date))
      return sendFikenMessage(res, 400, "Required request parameter 'date' (yyyy-MM-dd) is missing or invalid");
    const { company, apiBase } = fikenCallOf(res);
    const balances = new Map<string, number>();
    const add = (entry: FikenJournalEntry): void => {
      for (const line of entry.lines) balances.set(line.account, (balances.get(line.account) ?? 0) + line.amount);
    };
    const entries = journalEntries(state, company, apiBase, {
      to: new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
    });
    for (let i = 0; i < entries.seededCount; i++) add(entries.at(i));
    for (const entry of entries.booked) if (entry.date <= date) add(entry);
    const rows = company.accounts.filter((a) => inAccountRange(a.code, req));
    sendPage(req, res, rows.length, (i) => ({
      code: rows[i].code,
      name: rows[i].name,
      balance: balances.get(rows[i].code) ?? 0,
    }));
  });

  router.get('/companies/:slug/journalEntries', (req, res) => {
    const filter = dateFilterOf(req, res, 'date');
    if (!filter) return;
    const { company, apiBase } = fikenCallOf(res);
    const entries = journalEntries(state, company, apiBase, dateBounds(filter));
    const booked = entries.booked.filter((e) => matchesDate(e.date, filter));
    sendPage(req, res, entries.seededCount + booked.length, (i) =>
      i < entries.seededCount ? entries.at(i) : booked[i - entries.seededCount],
    );
  });

  router.get('/companies/:slug/journalEntries/:id', (req, res) => {
    const { company, apiBase } = fikenCallOf(res);
    const id = Number(req.params.id);
    const index = id - company.journalEntryId(0);
    if (Number.isInteger(index) && index >= 0 && index < company.ledger.count) {
      res.json(seededJournalEntry(company, index, apiBase));
      return;
    }
    const booked = state.purchasesOf(company.index).find((p) => p.journalEntry.journalEntryId === id);
    if (!booked) return sendFikenMessage(res, 404, `Journal entry ${String(req.params.id)} not found`);
    res.json(booked.journalEntry);
  });

  router.get('/companies/:slug/invoices', (req, res) => {
    const issue = dateFilterOf(req, res, 'issueDate');
    const due = issue && dateFilterOf(req, res, 'dueDate');
    if (!issue || !due) return;
    const { company, apiBase } = fikenCallOf(res);
    const settled = queryBool(req, 'settled');
    const customerId = queryString(req, 'customerId');
    const matching: number[] = [];
    for (let i = 0; i < company.invoiceShape.count; i++) {
      const invoice = seededFikenInvoice(company, i, apiBase) as {
        issueDate: string;
        dueDate: string;
        sale: { settled: boolean };
        customer: { contactId: number };
      };
      if (!matchesDate(invoice.issueDate, issue) || !matchesDate(invoice.dueDate, due)) continue;
      if (settled !== undefined && invoice.sale.settled !== settled) continue;
      if (customerId !== undefined && String(invoice.customer.contactId) !== customerId) continue;
      matching.push(i);
    }
    sendPage(req, res, matching.length, (i) => seededFikenInvoice(company, matching[i], apiBase));
  });

  router.get('/companies/:slug/invoices/:id', (req, res) => {
    const { company, apiBase } = fikenCallOf(res);
    const index = Number(req.params.id) - company.invoiceId(0);
    if (!Number.isInteger(index) || index < 0 || index >= company.invoiceShape.count) {
      return sendFikenMessage(res, 404, `Invoice ${String(req.params.id)} not found`);
    }
    res.json(seededFikenInvoice(company, index, apiBase));
  });

  router.get('/companies/:slug/bankAccounts', (req, res) => {
    const { company } = fikenCallOf(res);
    const inactive = queryBool(req, 'inactive');
    const accounts = company.bankAccounts.filter((b) => inactive === undefined || b.inactive === inactive);
    sendPage(req, res, accounts.length, (i) => accounts[i]);
  });

  router.get('/companies/:slug/contacts', (req, res) => {
    const { company } = fikenCallOf(res);
    const supplier = queryBool(req, 'supplier');
    const customer = queryBool(req, 'customer');
    const inactive = queryBool(req, 'inactive');
    const organizationNumber = queryString(req, 'organizationNumber');
    const name = queryString(req, 'name');
    const contacts = [
      ...company.suppliers.map((c) => ({ ...c, supplier: true, customer: false })),
      ...company.customers.map((c) => ({ ...c, supplier: false, customer: true })),
    ]
      .filter(
        (c) =>
          (supplier === undefined || c.supplier === supplier) &&
          (customer === undefined || c.customer === customer) &&
          (inactive === undefined || (c.inactive ?? false) === inactive) &&
          (organizationNumber === undefined || c.organizationNumber === organizationNumber) &&
          (name === undefined || c.name === name),
      )
      .map(contactView);
    sendPage(req, res, contacts.length, (i) => contacts[i]);
  });

  router.get('/companies/:slug/contacts/:contactId', (req, res) => {
    const { company } = fikenCallOf(res);
    const id = Number(req.params.contactId);
    const supplier = company.suppliers.find((c) => c.contactId === id);
    const customer = company.customers.find((c) => c.contactId === id);
    const found = supplier
      ? { ...supplier, supplier: true, customer: false }
      : customer && { ...customer, supplier: false, customer: true };
    if (!found) return sendFikenMessage(res, 404, `Contact ${String(req.params.contactId)} not found`);
    res.json(contactView(found));
  });

  // Creates a contact; the service creates suppliers (a customer contact is not kept here).
  router.post('/companies/:slug/contacts', (req, res) => {
    const { company, apiBase } = fikenCallOf(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 200)
      return sendFikenMessage(res, 400, 'name is required (1 to 200 characters)');
    if (body.organizationNumber !== undefined && typeof body.organizationNumber !== 'string')
      return sendFikenMessage(res, 400, 'organizationNumber must be a string');
    if (
      body.bankAccountNumber !== undefined &&
      (typeof body.bankAccountNumber !== 'string' || body.bankAccountNumber.length > 11)
    )
      return sendFikenMessage(res, 400, 'bankAccountNumber: size must be between 0 and 11');
    if (body.supplier !== true)
      return sendFikenMessage(res, 400, 'The sandbox creates supplier contacts only (supplier: true)');
    const contact = state.addSupplier(company.index, {
      name: body.name,
      organizationNumber: typeof body.organizationNumber === 'string' ? body.organizationNumber : '',
      email: typeof body.email === 'string' ? body.email : '',
      ...(typeof body.bankAccountNumber === 'string' ? { bankAccountNumber: body.bankAccountNumber } : {}),
    });
    res.status(201).location(`${apiBase}/companies/${company.slug}/contacts/${contact.contactId}`).end();
  });

  router.get('/companies/:slug/transactions/:id', (req, res) => {
    const { company } = fikenCallOf(res);
    const purchase = state
      .purchasesOf(company.index)
      .find((p) => String(p.transactionId) === req.params.id || String(p.journalEntry.transactionId) === req.params.id);
    if (!purchase) return sendFikenMessage(res, 404, `Transaction ${String(req.params.id)} not found`);
    res.json({
      transactionId: purchase.transactionId,
      createdDate: purchase.createdAt.slice(0, 10),
      lastModifiedDate: purchase.createdAt.slice(0, 10),
      description: purchase.journalEntry.description,
      type: purchase.kind === 'supplier' ? 'Purchase' : 'Cash purchase',
      entries: [purchase.journalEntry],
      deleted: false,
    });
  });

  router.get('/companies/:slug/purchases', (req, res) => {
    const filter = dateFilterOf(req, res, 'date');
    if (!filter) return;
    const { company } = fikenCallOf(res);
    const sortBy = queryString(req, 'sortBy') ?? 'date asc';
    if (!PURCHASE_SORTS.includes(sortBy)) {
      return sendFikenMessage(
        res,
        400,
        `Invalid value for sortBy: '${sortBy}' (allowed: ${PURCHASE_SORTS.join(', ')})`,
      );
    }
    const paid = queryBool(req, 'paid');
    const purchases = [...historyPurchasesOf(company), ...state.purchasesOf(company.index)]
      .filter((p) => matchesDate(p.date, filter) && (paid === undefined || p.paid === paid))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    if (sortBy === 'date desc') purchases.reverse();
    sendPage(req, res, purchases.length, (i) => purchaseView(company, purchases[i]));
  });

  router.post('/companies/:slug/purchases', (req, res) => {
    const { company, apiBase } = fikenCallOf(res);
    const sequence = state.purchasesOf(company.index).length + 1;
    const result = buildPurchase(
      company,
      req.body,
      {
        purchaseId: company.purchaseId(sequence),
        journalEntryId: company.bookedJournalEntryId(sequence),
        journalEntryNumber: company.ledger.count + sequence,
      },
      state.options.now().toISOString(),
    );
    if (!result.ok) return sendFikenMessage(res, 400, result.message);
    state.addPurchase(company.index, result.purchase);
    res.status(201).location(`${apiBase}/companies/${company.slug}/purchases/${result.purchase.purchaseId}`).end();
  });

  router.get('/companies/:slug/purchases/:id', (req, res) => {
    const { company } = fikenCallOf(res);
    const purchase = [...historyPurchasesOf(company), ...state.purchasesOf(company.index)].find(
      (p) => String(p.purchaseId) === req.params.id,
    );
    if (!purchase) return sendFikenMessage(res, 404, `Purchase ${String(req.params.id)} not found`);
    res.json(purchaseView(company, purchase));
  });

  router.get('/companies/:slug/purchases/:id/attachments', (req, res) => {
    const { company } = fikenCallOf(res);
    const purchase = state.purchasesOf(company.index).find((p) => String(p.purchaseId) === req.params.id);
    if (!purchase) return sendFikenMessage(res, 404, `Purchase ${String(req.params.id)} not found`);
    res.json(purchase.purchaseAttachments);
  });

  router.post('/companies/:slug/purchases/:id/attachments', attachToPurchase(state));
}

/**
 * `POST /purchases/{id}/attachments`: multipart `filename` + `file`, at least one of the query flags
 * `attachToPayment` / `attachToSale` true; answered 201 with a `Location` ending in a UUID.
 */
function attachToPurchase(state: FikenState): RequestHandler {
  const single = receiptUpload.single('file');
  return (req: Request, res: Response) => {
    single(req, res, (error: unknown) => {
      if (error) return sendFikenMessage(res, 400, `Invalid multipart upload: ${(error as Error).message}`);
      const { company, apiBase } = fikenCallOf(res);
      const purchase = state.purchasesOf(company.index).find((p) => String(p.purchaseId) === req.params.id);
      if (!purchase) return sendFikenMessage(res, 404, `Purchase ${String(req.params.id)} not found`);
      if (queryBool(req, 'attachToPayment') !== true && queryBool(req, 'attachToSale') !== true) {
        return sendFikenMessage(res, 400, 'At least one of attachToPayment and attachToSale must be true');
      }
      const fields = (req.body ?? {}) as Record<string, string | undefined>;
      const unexpected = Object.keys(fields).find((name) => name !== 'filename');
      if (unexpected) return sendFikenMessage(res, 400, `Unrecognized part '${unexpected}'`);
      const filename = fields.filename;
      if (!filename) return sendFikenMessage(res, 400, "Required part 'filename' is missing");
      if (!RECEIPT_EXTENSIONS.some((ext) => filename.toLowerCase().endsWith(ext))) {
        return sendFikenMessage(
          res,
          400,
          `Unsupported file type for '${filename}' (allowed: ${RECEIPT_EXTENSIONS.join(', ')})`,
        );
      }
      if (!req.file) return sendFikenMessage(res, 400, "Required part 'file' is missing");
      const identifier = randomUUID();
      const attachment = attachmentFor(apiBase, company.slug, identifier, filename);
      purchase.purchaseAttachments.push(attachment);
      purchase.journalEntry.attachments.push(attachment);
      res
        .status(201)
        .location(`${apiBase}/companies/${company.slug}/purchases/${purchase.purchaseId}/attachments/${identifier}`)
        .end();
    });
  };
}
