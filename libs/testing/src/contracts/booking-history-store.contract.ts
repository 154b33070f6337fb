import type { BookingHistoryStore, HistoricalBooking, HistoryImport } from '@app/domain';
import { companies, ContractOptions } from './contract-support';

const NOW = new Date('2026-11-20T10:00:00.000Z');

const booking = (overrides: Partial<HistoricalBooking> = {}): HistoricalBooking => ({
  provider: 'tripletex',
  bookingId: 'supplierInvoice/1',
  kind: 'supplier_invoice',
  date: '2026-10-01',
  merchant: 'Telenor Norge AS',
  accountCode: '6900',
  vatRate: '25',
  amount: 64900,
  ...overrides,
});

const importOf = (companyId: string, overrides: Partial<HistoryImport> = {}): HistoryImport => ({
  companyId,
  provider: 'tripletex',
  periodFrom: '2025-11-20',
  periodTo: '2026-11-20',
  status: 'running',
  cursor: '{"phase":0,"position":100}',
  bookingsRead: 1,
  pagesRead: 1,
  startedBy: 'kari@example.no',
  startedAt: NOW,
  updatedAt: NOW,
  finishedAt: null,
  error: null,
  ...overrides,
});

/** The BookingHistoryStore contract, run against the in-memory and the TypeORM adapters. */
export function describeBookingHistoryStoreContract(
  name: string,
  factory: () => BookingHistoryStore | Promise<BookingHistoryStore>,
  options: ContractOptions = {},
): void {
  describe(`BookingHistoryStore contract: ${name}`, () => {
    let store: BookingHistoryStore;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('stores a page and the import state together, and a page stored twice once', async () => {
      const page = [booking(), booking({ bookingId: 'voucher/7', kind: 'voucher', date: '2026-09-01' })];
      await store.savePage(page, importOf(company));
      await store.savePage(page, importOf(company, { pagesRead: 2 }));

      expect(await store.bookingsSince(company, '2025-01-01')).toEqual([page[1], page[0]]);
      expect(await store.findImport(company)).toEqual(importOf(company, { pagesRead: 2 }));
      expect(await store.bookingsSince(otherCompany, '2025-01-01')).toEqual([]);
      expect(await store.findImport(otherCompany)).toBeNull();
    });

    it('reads bookings from a date, oldest first', async () => {
      await store.savePage(
        [
          booking({ bookingId: 'a', date: '2026-10-01' }),
          booking({ bookingId: 'b', date: '2026-10-03' }),
          booking({ bookingId: 'c', date: '2026-10-02', amount: 100 }),
          booking({ bookingId: 'd', date: '2026-10-02', amount: 64901 }),
          booking({ bookingId: 'e', date: '2026-10-02', amount: 64903 }),
        ],
        importOf(company),
      );

      expect((await store.bookingsSince(company, '2026-10-02')).map((b) => b.bookingId)).toEqual(['c', 'd', 'e', 'b']);
    });

    it('keeps the end of an import', async () => {
      const done = importOf(company, { status: 'done', cursor: null, finishedAt: NOW, error: null });
      await store.saveImport(importOf(company, { status: 'failed', error: 'Tripletex answered 503' }));
      await store.saveImport(done);

      expect(await store.findImport(company)).toEqual(done);
    });
  });
}
