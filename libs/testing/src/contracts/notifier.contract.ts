import { Notifier, OutboundMessage } from '@app/domain';
import { companies, ContractOptions } from './contract-support';

export interface NotifierUnderTest {
  readonly notifier: Notifier;
  /** The messages waiting for delivery for one company, oldest first, as handed over. */
  readonly pending: (companyId: string) => Promise<OutboundMessage[]>;
}

/** The Notifier contract, run against the in-memory adapter and the outbox adapter. */
export function describeNotifierContract(
  name: string,
  factory: () => NotifierUnderTest | Promise<NotifierUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`Notifier contract: ${name}`, () => {
    let subject: NotifierUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('keeps handed-over messages, in order, with their payloads intact, and returns one distinct id each', async () => {
      const messages: OutboundMessage[] = [
        {
          companyId: company,
          target: 'review',
          kind: 'proposal_needs_review',
          payload: { proposalId: 'p1', confidence: 0, reasons: ['unknown merchant'] },
        },
        {
          companyId: company,
          target: 'user_thread',
          kind: 'proposal_auto_approved',
          payload: { proposalId: 'p2', confidence: 0.96, thread: { channel: 'slack', threadId: 'C01/1' } },
        },
      ];

      const ids = await subject.notifier.notify(messages);

      expect(new Set(ids).size).toBe(2);
      expect(await subject.pending(company)).toEqual(messages);
    });

    it('keeps companies apart', async () => {
      await subject.notifier.notify([
        { companyId: company, target: 'invoices', kind: 'daily_check', payload: { missingReceipts: [] } },
      ]);

      expect(await subject.pending(otherCompany)).toEqual([]);
    });

    it('accepts an empty batch', async () => {
      expect(await subject.notifier.notify([])).toEqual([]);
      expect(await subject.pending(company)).toEqual([]);
    });
  });
}
