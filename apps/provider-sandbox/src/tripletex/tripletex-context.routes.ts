import type { Router } from 'express';
import { CURRENCIES } from '../seed/currencies';
import { queryString } from '../shared/http';
import { sendNotFound } from './tripletex-errors';
import { callOf, dateRangeOf, idParam, sendList, sendValue } from './tripletex-http';
import { seededInvoice } from './tripletex-ledger';
import type { TxInvoice } from './tripletex-model';

/** Departments, employees, suppliers, customers and customer invoices. */
export function registerContextRoutes(router: Router): void {
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
  listAndGet(
    'supplier',
    (res) => callOf(res).company.suppliers.map((s) => s.id),
    (res, id) => callOf(res).serializer.supplier(id),
  );
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
