import type { BookedReceipts } from '@app/application';
import { companies, ContractOptions, uniqueId } from './contract-support';

const NOW = new Date('2026-11-20T10:00:00.000Z');

/** The BookedReceipts contract, run against the in-memory and the TypeORM adapters. */
export function describeBookedReceiptsContract(
  name: string,
  factory: () => BookedReceipts | Promise<BookedReceipts>,
  options: ContractOptions = {},
): void {
  describe(`BookedReceipts contract: ${name}`, () => {
    let store: BookedReceipts;
    let company: string;
    let otherCompany: string;
    const sha = () => uniqueId().replace(/-/g, '').padEnd(64, '0');

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('reserves a receipt for the first proposal and names it to a second one', async () => {
      const receipt = sha();
      const [first, second] = [uniqueId(), uniqueId()];

      expect(await store.reserve(company, receipt, first, NOW)).toBeNull();
      expect(await store.reserve(company, receipt, first, NOW)).toBeNull();
      expect(await store.reserve(company, receipt, second, NOW)).toEqual({ proposalId: first, bookingId: null });
      expect(await store.reserve(otherCompany, receipt, second, NOW)).toBeNull();
    });

    it('keeps the booking, which a release no longer drops', async () => {
      const receipt = sha();
      const [first, second] = [uniqueId(), uniqueId()];
      await store.reserve(company, receipt, first, NOW);
      await store.recordBooking(company, receipt, first, 'voucher-7', NOW);
      await store.release(company, receipt, first);

      expect(await store.find(company, receipt)).toEqual({ proposalId: first, bookingId: 'voucher-7' });
      expect(await store.reserve(company, receipt, second, NOW)).toEqual({ proposalId: first, bookingId: 'voucher-7' });
    });

    it('frees a reservation its holder releases, and ignores a release by anyone else', async () => {
      const receipt = sha();
      const [first, second] = [uniqueId(), uniqueId()];
      await store.reserve(company, receipt, first, NOW);
      await store.release(company, receipt, second);
      expect(await store.find(company, receipt)).toEqual({ proposalId: first, bookingId: null });

      await store.release(company, receipt, first);

      expect(await store.find(company, receipt)).toBeNull();
      expect(await store.reserve(company, receipt, second, NOW)).toBeNull();
    });

    it('records a booking for a receipt that was never reserved', async () => {
      const receipt = sha();
      const proposal = uniqueId();
      await store.recordBooking(company, receipt, proposal, 'purchase-3', NOW);

      expect(await store.find(company, receipt)).toEqual({ proposalId: proposal, bookingId: 'purchase-3' });
    });
  });
}
