import { entryDate, indexRange, ledgerEntry, type LedgerShape } from './ledger';
import { seedInvoice } from './invoices';
import { createSandbox } from '../sandbox';
import request from 'supertest';
import { tripletexEmployeeToken, SANDBOX_TRIPLETEX_CONSUMER_TOKEN } from '../constants';

const shape: LedgerShape = { seed: 1, stream: 1, company: 3, count: 2_000, endDate: '2026-03-16', days: 365 };

describe('Seeded ledger', () => {
  it('is a pure function of seed, company and index', () => {
    expect(ledgerEntry(shape, 42)).toEqual(ledgerEntry({ ...shape }, 42));
    expect(ledgerEntry(shape, 42)).not.toEqual(ledgerEntry({ ...shape, seed: 2 }, 42));
    expect(ledgerEntry(shape, 42)).not.toEqual(ledgerEntry({ ...shape, company: 4 }, 42));
  });

  it('balances every entry and keeps dates in order inside the period', () => {
    let previous = '';
    for (let i = 0; i < shape.count; i++) {
      const entry = ledgerEntry(shape, i);
      expect(entry.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(0);
      expect(entry.date >= previous).toBe(true);
      expect(entry.date >= '2025-03-16' && entry.date < '2026-03-16').toBe(true);
      previous = entry.date;
    }
  });

  it('maps a date range to the index range of the entries inside it', () => {
    const { from, to } = indexRange(shape, '2025-06-01', '2025-07-01');
    expect(entryDate(shape, from) >= '2025-06-01').toBe(true);
    expect(entryDate(shape, from - 1) < '2025-06-01').toBe(true);
    expect(entryDate(shape, to - 1) < '2025-07-01').toBe(true);
    expect(entryDate(shape, to) >= '2025-07-01').toBe(true);
  });

  it('seeds invoices with some overdue and some settled', () => {
    const invoices = Array.from({ length: 60 }, (_, i) =>
      seedInvoice({ seed: 1, stream: 2, company: 0, count: 60, endDate: '2026-03-16' }, i),
    );
    expect(invoices.some((i) => i.dueDate < '2026-03-16' && i.outstanding > 0)).toBe(true);
    expect(invoices.some((i) => i.outstanding === 0)).toBe(true);
  });

  it('serves the benchmark size (1 000 companies × 2 000 vouchers) lazily', async () => {
    const { app } = createSandbox({ companies: 1_000, entriesPerCompany: 2_000, ledgerEndDate: '2026-03-16' });
    const before = process.memoryUsage().heapUsed;
    for (const index of [0, 499, 999]) {
      const session = await request(app)
        .put('/tripletex/v2/token/session/:create')
        .query({
          consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
          employeeToken: tripletexEmployeeToken(index),
          expirationDate: '2099-01-01',
        });
      const auth = `Basic ${Buffer.from(`0:${session.body.value.token as string}`).toString('base64')}`;
      const page = await request(app)
        .get('/tripletex/v2/ledger/voucher')
        .query({ dateFrom: '2025-01-01', dateTo: '2026-03-17', from: 1_000, count: 1_000, fields: 'id,attachment' })
        .set('Authorization', auth);
      expect(page.body.fullResultSize).toBe(2_000);
      expect(page.body.values).toHaveLength(1_000);
    }
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });
});
