import type { Router } from 'express';
import { CURRENCIES } from '../seed/currencies';
import { queryString } from '../shared/http';
import { sendNotFound, sendValidation, type ValidationMessage } from './tripletex-errors';
import { callOf, dateRangeOf, idParam, sendList, sendValue } from './tripletex-http';
import { seededInvoice } from './tripletex-ledger';
import type { TxInvoice } from './tripletex-model';
import type { TripletexState } from './tripletex-state';

/** Departments, employees, suppliers (found by organisation number, created), customers and customer invoices. */
export function registerContextRoutes(router: Router, state: TripletexState): void {
  const listAndGet = (
    path: string,
    ids: (res: Parameters<typeof callOf>[0]) => number[],
    render: (res: Parameters<typeof callOf>[0], id: number) => Record<string, unknown> | null,
  ): void => {
    router.get(`/${path}`, (req, res) => {
      const list = ids(res);
      sendList(req, res, list.length, (i) => render(res, list[i]) ?? {}, `${path}:${callOf(res).company.id}`);
    });
    router.get(`/${path}/:id`, (req, res) => {
      const id = idParam(req, res, path);
      if (id === undefined) return;
      const value = ids(res).includes(id) ? render(res, id) : null;
      if (!value) return sendNotFound(res, `${path} ${id}`);
      sendValue(req, res, value);
    });
  };

  listAndGet(
    'department',
    (res) => callOf(res).company.departments.map((d) => d.id),
    (res, id) => callOf(res).serializer.department(id),
  );
  listAndGet(
    'employee',
    (res) => callOf(res).company.employees.map((e) => e.id),
    (res, id) => callOf(res).serializer.employee(id),
  );
  router.get('/supplier', (req, res) => {
    const { company, serializer } = callOf(res);
    const organizationNumber = queryString(req, 'organizationNumber');
    const isInactive = queryString(req, 'isInactive');
    const suppliers = company.suppliers.filter(
      (s) =>
        (organizationNumber === undefined || s.organizationNumber === organizationNumber) &&
        (isInactive === undefined || String(s.inactive === true) === isInactive),
    );
    sendList(
      req,
      res,
      suppliers.length,
      (i) => serializer.supplier(suppliers[i].id) ?? {},
      `supplier:${company.id}:${req.originalUrl}:${company.suppliers.length}`,
    );
  });
  router.get('/supplier/:id', (req, res) => {
    const id = idParam(req, res, 'supplier');
    if (id === undefined) return;
    const value = callOf(res).serializer.supplier(id);
    if (!value) return sendNotFound(res, `supplier ${id}`);
    sendValue(req, res, value);
  });
  router.post('/supplier', (req, res) => {
    const { company, serializer } = callOf(res);
    const body: Record<string, unknown> =
      typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : {};
    const problems: ValidationMessage[] = [];
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name === '') problems.push({ field: 'name', message: 'Navn må oppgis.' });
    const organizationNumber = typeof body.organizationNumber === 'string' ? body.organizationNumber : '';
    if (organizationNumber !== '' && !/^\d{9}$/.test(organizationNumber)) {
      problems.push({ field: 'organizationNumber', message: 'Organisasjonsnummeret må ha 9 siffer.' });
    }
    const bankAccounts = bankAccountsOf(body);
    if (bankAccounts.some((account) => !/^\d{11}$/.test(account))) {
      problems.push({ field: 'bankAccountPresentation', message: 'Kontonummeret må ha 11 siffer.' });
    }
    if (problems.length > 0) return sendValidation(res, 'Validering feilet.', problems);
    const email = typeof body.email === 'string' ? body.email : '';
    const supplier = state.addSupplier(company, { name, organizationNumber, email, bankAccounts });
    sendValue(req, res, serializer.supplier(supplier.id) ?? {}, 201);
  });
  listAndGet(
    'customer',
    (res) => callOf(res).company.customers.map((c) => c.id),
    (res, id) => callOf(res).serializer.customer(id),
  );

  router.get('/currency', (req, res) => {
    const { company, serializer } = callOf(res);
    const codes = queryString(req, 'code')
      ?.split(',')
      .map((code) => code.trim().toUpperCase());
    const currencies = CURRENCIES.filter((c) => !codes || codes.includes(c.code));
    sendList(
      req,
      res,
      currencies.length,
      (i) => serializer.currency(currencies[i].id),
      `currency:${company.id}:${req.originalUrl}`,
    );
  });

  router.get('/invoice', (req, res) => {
    const range = dateRangeOf(req, res, 'invoiceDateFrom', 'invoiceDateTo');
    if (!range) return;
    const { company, serializer } = callOf(res);
    const customerId = queryString(req, 'customerId');
    const invoices: TxInvoice[] = [];
    for (let i = 0; i < company.invoiceShape.count; i++) {
      const invoice = seededInvoice(company, i);
      if (invoice.invoiceDate < range.from || invoice.invoiceDate >= range.to) continue;
      if (customerId !== undefined && String(invoice.customerId) !== customerId) continue;
      invoices.push(invoice);
    }
    sendList(
      req,
      res,
      invoices.length,
      (i) => serializer.invoice(invoices[i]),
      `invoice:${company.id}:${req.originalUrl}`,
    );
  });

  router.get('/invoice/:id', (req, res) => {
    const id = idParam(req, res, 'Invoice');
    if (id === undefined) return;
    const { company, serializer } = callOf(res);
    const index = id - company.invoiceId(0);
    if (index < 0 || index >= company.invoiceShape.count) return sendNotFound(res, `Invoice ${id}`);
    sendValue(req, res, serializer.invoice(seededInvoice(company, index)));
  });
}

/** A new supplier's bank account numbers: `bankAccountPresentation[].bban`, or the older `bankAccounts`. */
function bankAccountsOf(body: Record<string, unknown>): string[] {
  const presentation = Array.isArray(body.bankAccountPresentation) ? body.bankAccountPresentation : [];
  const fromPresentation = presentation.flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null && typeof (entry as { bban?: unknown }).bban === 'string'
      ? [(entry as { bban: string }).bban]
      : [],
  );
  const legacy = Array.isArray(body.bankAccounts) ? body.bankAccounts.filter((a) => typeof a === 'string') : [];
  return [...fromPresentation, ...(legacy as string[])];
}
