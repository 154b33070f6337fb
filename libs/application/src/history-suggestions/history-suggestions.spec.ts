import {
  AccountingProvider,
  ProviderError,
  type HistoricalBooking,
  type HistoryPage,
  type ProviderConnectionRecord,
  type ProviderConnectionRepository,
} from '@app/domain';
import {
  TEST_COMPANY,
  testProviderRegistry,
  aRepeatSubmission,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  submitted,
  endUseCaseWorlds,
} from '@app/testing';
import { ProviderConnections } from '../onboarding/provider-connections';
import { ApplicationContext } from '../shared/domain-context.provider';
import { ImportBookingHistoryHandler } from './history-suggestions.handlers';

let n = 0;
const booking = (month: number, overrides: Partial<HistoricalBooking> = {}): HistoricalBooking => ({
  provider: 'tripletex',
  bookingId: `supplierInvoice/${++n}`,
  kind: 'supplier_invoice',
  date: `2026-${String(month).padStart(2, '0')}-05`,
  merchant: 'Spotify AB',
  accountCode: '6540',
  vatRate: '25',
  amount: 11900,
  ...overrides,
});

/** A year of Spotify (6540), a mixed Clas Ohlson, and a one-off, in pages of `pageSize`. */
const YEAR: HistoricalBooking[] = [
  ...Array.from({ length: 10 }, (_, i) => booking(i + 1)),
  ...[6800, 6540, 6800, 6540].map((account, i) =>
    booking(i + 2, { merchant: 'Clas Ohlson AS', accountCode: String(account), amount: 49900 }),
  ),
  booking(7, { merchant: 'IKEA AS', amount: 1249000 }),
];

/** Pages the history as a provider does, and fails once after `failAfter` pages when told. */
class FakeHistoryProvider {
  calls: (string | null)[] = [];
  failAfter: number | null = null;

  async *bookingHistoryPages(_c: unknown, _f: string, _t: string, cursor: string | null): AsyncGenerator<HistoryPage> {
    this.calls.push(cursor);
    const pageSize = 4;
    for (let start = cursor === null ? 0 : Number(cursor); start < YEAR.length; start += pageSize) {
      if (this.failAfter !== null && start / pageSize >= this.failAfter) {
        this.failAfter = null;
        throw new ProviderError('tripletex', 'unavailable', 'Tripletex answered 503');
      }
      const next = start + pageSize;
      yield { bookings: YEAR.slice(start, next), cursor: next >= YEAR.length ? null : String(next), total: null };
    }
  }
}

const RECORD: ProviderConnectionRecord = {
  companyId: TEST_COMPANY,
  provider: 'tripletex',
  status: 'connected',
  externalCompanyId: '108001',
  externalCompanyName: 'Acme AS',
  accessTokenExpiresAt: null,
  reauthorizationReason: null,
  connectedBy: 'anne@acme.no',
  connectedAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
};

function aHistoryWorld() {
  const world = aUseCaseWorld();
  const provider = new FakeHistoryProvider();
  const repository = {
    find: async (companyId: string) => (companyId === TEST_COMPANY ? RECORD : null),
    employeeToken: async () => 'employee-token',
    markNeedsReauthorization: async () => undefined,
  } as unknown as ProviderConnectionRepository;
  const importHistory = new ImportBookingHistoryHandler(
    world.history,
    new ProviderConnections(repository, testProviderRegistry()),
    provider as unknown as AccountingProvider,
    world.unitOfWork,
    new ApplicationContext(world.clock, world.ids),
  );
  return { ...world, provider, importHistory };
}

const refresh = (w: ReturnType<typeof aHistoryWorld>) =>
  w.importHistory.execute({ companyId: TEST_COMPANY, actor: ACCOUNTANT.actor });

afterAll(endUseCaseWorlds);

describe('history suggestions', () => {
  it('reads the history page by page and suggests only the merchants whose account clearly dominates', async () => {
    const w = aHistoryWorld();
    const progress: number[] = [];

    const result = await w.importHistory.execute({
      companyId: TEST_COMPANY,
      actor: ACCOUNTANT.actor,
      onProgress: (_state, done) => progress.push(done),
    });

    expect(result.import).toMatchObject({ status: 'done', bookingsRead: YEAR.length, pagesRead: 4, cursor: null });
    expect(progress.at(-1)).toBe(1);
    const page = await w.listSuggestions.execute({ caller: ACCOUNTANT });
    expect(page.items.map((p) => [p.merchantKey, p.accountCode, p.verified, p.amountStats.count])).toEqual([
      ['spotify', '6540', false, 10],
    ]);
    expect(page.import).toMatchObject({ status: 'done', bookingsRead: YEAR.length });
    expect(
      w.events
        .all()
        .filter((e) => e.type === 'PatternSaved')
        .map((e) => e.data),
    ).toEqual([expect.objectContaining({ cause: 'suggested' })]);
  });

  it('resumes an interrupted read from the last page stored', async () => {
    const w = aHistoryWorld();
    w.provider.failAfter = 2;

    await expect(refresh(w)).rejects.toThrow(/503/);
    expect(await w.history.findImport(TEST_COMPANY)).toMatchObject({ status: 'failed', cursor: '8', pagesRead: 2 });

    const result = await refresh(w);

    expect(w.provider.calls).toEqual([null, '8']);
    expect(result.import).toMatchObject({ status: 'done', bookingsRead: YEAR.length });
    expect(await w.history.bookingsSince(TEST_COMPANY, '2025-01-01')).toHaveLength(YEAR.length);
  });

  it('scores a suggestion for review until confirmed, then auto-approves for others than the confirmer', async () => {
    const w = aHistoryWorld();
    await refresh(w);
    const before = await submitted(w, aRepeatSubmission(1));
    expect(before.proposal).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });

    const [suggestion] = (await w.listSuggestions.execute({ caller: ACCOUNTANT })).items;
    const [confirmed] = await w.confirmSuggestions.execute({ caller: ACCOUNTANT, ids: [suggestion.id] });

    expect(confirmed).toMatchObject({ verified: true, confirmedBy: [ACCOUNTANT.actor], amountStats: { count: 10 } });
    expect((await w.listSuggestions.execute({ caller: ACCOUNTANT })).items).toEqual([]);
    expect(w.events.all().at(-1)).toMatchObject({
      type: 'PatternSaved',
      actor: ACCOUNTANT.actor,
      data: { cause: 'suggestion_confirmed' },
    });
    expect((await submitted(w, aRepeatSubmission(2), EMPLOYEE)).proposal.status).toBe('APPROVED');
    expect((await submitted(w, aRepeatSubmission(3), ACCOUNTANT)).proposal.status).toBe('PROPOSED');
    expect((await submitted(w, aRepeatSubmission(4, { amount: '1190.00' }), EMPLOYEE)).proposal.status).toBe(
      'PROPOSED',
    );
  });

  it('confirms all or none', async () => {
    const w = aHistoryWorld();
    await refresh(w);
    const [suggestion] = (await w.listSuggestions.execute({ caller: ACCOUNTANT })).items;

    await expect(
      w.confirmSuggestions.execute({ caller: ACCOUNTANT, ids: [suggestion.id, 'no-such-pattern'] }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await w.listSuggestions.execute({ caller: ACCOUNTANT })).items).toHaveLength(1);
    await expect(w.confirmSuggestions.execute({ caller: ACCOUNTANT, ids: [] })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('flags a proposal that repeats a booking already in the books', async () => {
    const w = aHistoryWorld();
    await refresh(w);

    const again = await submitted(w, aSubmission({ merchant: 'IKEA AS', amount: '12490.00', date: '2026-07-06' }));

    expect(again.proposal.reasons.join(' ')).toContain(
      `possible duplicate of tripletex supplier_invoice ${YEAR[14].bookingId} already in the books`,
    );
  });
});
