import {
  AccountingProvider,
  formatMoney,
  type HistoricalBooking,
  type HistoryPage,
  type ProviderConnectionRecord,
  type ProviderConnectionRepository,
} from '@app/domain';
import {
  receiptImage,
  receiptPdf,
  TEST_COMPANY,
  testProviderRegistry,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  EMPLOYEE,
  submitted,
  endUseCaseWorlds,
} from '@app/testing';
import { ImportBookingHistoryHandler } from '../history-suggestions/history-suggestions.handlers';
import { ProviderConnections } from '../onboarding/provider-connections';
import { ApplicationContext } from '../shared/domain-context.provider';

/**
 * The trust evaluation (docs/trust.md "Measured"): realistic generated expenses run through the
 * real use cases over the in-memory adapters, figures printed. Deterministic (seeded generator).
 */

/** Mulberry32: a small seeded generator, so that every run sees the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Merchant {
  /** Descriptor variants, as card statements and people write them. */
  readonly names: readonly string[];
  readonly account: string | readonly string[];
  readonly vat: string;
  /** Kroner: constant, or [min, max]. */
  readonly kroner: number | readonly [number, number];
  /** Days between purchases, about. */
  readonly every: number;
}

const MERCHANTS: readonly Merchant[] = [
  { names: ['Telenor Norge AS', 'TELENOR NORGE AS'], account: '6900', vat: '25', kroner: [549, 899], every: 30 },
  { names: ['Fjordkraft AS', 'FJORDKRAFT'], account: '6340', vat: '25', kroner: [700, 3_400], every: 30 },
  { names: ['Kontorleie Eiendom AS'], account: '6300', vat: '0', kroner: 18_500, every: 30 },
  {
    names: ['SPOTIFY AB *P2B9C1X', 'Spotify AB', 'SPOTIFY AB *Q7Z3M1K', 'PAYPAL *SPOTIFY'],
    account: '6800',
    vat: '25',
    kroner: 119,
    every: 30,
  },
  {
    names: ['UBER *TRIP 7XK2', 'UBER *TRIP HELP.UBER.COM', 'Uber'],
    account: '7140',
    vat: '12',
    kroner: [150, 450],
    every: 6,
  },
  {
    names: ['UBER *EATS 2QX9', 'Uber Eats', 'UBER * EATS 8LM3'],
    account: '5915',
    vat: '15',
    kroner: [180, 420],
    every: 9,
  },
  {
    names: ['VIPPS*Kaffebrenneriet', 'Kaffebrenneriet AS', 'SQ *KAFFEBRENNERIET'],
    account: '5915',
    vat: '15',
    kroner: [60, 240],
    every: 4,
  },
  { names: ['Telia Norge AS', 'TELIA NORGE'], account: '6900', vat: '25', kroner: 399, every: 30 },
  { names: ['Staples Norge AS', 'STAPLES NORGE AS 0231'], account: '6800', vat: '25', kroner: [300, 1_500], every: 14 },
  { names: ['Engros Grossisten AS'], account: '4300', vat: '25', kroner: [4_000, 9_500], every: 14 },
  { names: ['Finn.no AS', 'FINN.NO'], account: '7320', vat: '25', kroner: 1_990, every: 30 },
  { names: ['Vy', 'VY APP 4411'], account: '7140', vat: '12', kroner: [79, 899], every: 8 },
  // Booked half to office supplies, half to furniture: never a safe repeat.
  { names: ['Clas Ohlson AS'], account: ['6800', '6540'], vat: '25', kroner: [200, 2_500], every: 20 },
];

/** Look-alike pairs: the second is a different business, to be known only by its twin's pattern. */
const LOOK_ALIKES: readonly [string, string, string, string][] = [
  ['Uber', 'UBER *EATS 2QX9', '5915', '15'],
  ['Uber', 'Uber Eats', '5915', '15'],
  ['Telenor Norge AS', 'Telia Norge AS', '6900', '25'],
  ['Telenor Norge AS', 'TELIA NORGE', '6900', '25'],
  ['Spotify AB', 'Spotify Family AS', '6800', '25'],
  ['Vy', 'Vy Buss AS', '7140', '12'],
];

const kronerOf = (merchant: Merchant, next: () => number): number =>
  typeof merchant.kroner === 'number'
    ? merchant.kroner
    : Math.round((merchant.kroner[0] + next() * (merchant.kroner[1] - merchant.kroner[0])) * 100) / 100;

const accountOf = (merchant: Merchant, n: number): string =>
  typeof merchant.account === 'string' ? merchant.account : merchant.account[n % merchant.account.length];

let receipts = 0;
/** A submission with a receipt of its own (another purchase, not a duplicate), unless `overrides` gives one. */
function expense(
  merchant: string,
  kroner: number,
  accountCode: string,
  vatRate: string,
  date: string,
  overrides: Record<string, unknown> = {},
) {
  const bytes = receiptPdf({ note: `receipt ${++receipts}` });
  return aSubmission({
    merchant,
    amount: kroner.toFixed(2),
    accountCode,
    vatRate,
    date,
    description: null,
    receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') },
    ...overrides,
  });
}

/** A receipt upload of `bytes`. */
const upload = (bytes: Uint8Array, contentType: string) => ({
  filename: contentType === 'application/pdf' ? 'r.pdf' : 'r.png',
  contentType,
  dataBase64: Buffer.from(bytes).toString('base64'),
});

const day = (start: string, offset: number) =>
  new Date(Date.parse(`${start}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** A world with no auto-approval limit (the evaluation measures the engine, not the company's limit). */
async function aWorld() {
  const world = aUseCaseWorld();
  world.clock.set(new Date('2026-11-20T10:00:00Z'));
  await world.updateCompanySettings.execute({
    caller: { ...ACCOUNTANT, role: 'admin' },
    changes: { autoApproveMaxAmount: null },
  });
  return world;
}

type World = Awaited<ReturnType<typeof aWorld>>;

/** Submits as the employee; a reviewer approves what did not auto-approve (with the right values). */
async function submitAndReview(world: World, submission: ReturnType<typeof expense>): Promise<boolean> {
  const { proposal } = await submitted(world, submission, EMPLOYEE);
  if (proposal.status === 'APPROVED') return true;
  await world.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });
  return false;
}

afterAll(endUseCaseWorlds);

describe('trust evaluation', () => {
  const figures: string[] = [];
  afterAll(() => {
    console.log(`trust evaluation\n${figures.join('\n')}`);
  });

  it('auto-approves safe repeats and never a look-alike, a wrong account, an ambiguous merchant or an odd amount', async () => {
    const next = random(20);
    const world = await aWorld();
    // What the reviewers taught: three approvals of each merchant under its first name.
    for (const merchant of MERCHANTS) {
      for (let i = 0; i < 3; i++) {
        await submitAndReview(
          world,
          expense(
            merchant.names[0],
            kronerOf(merchant, next),
            accountOf(merchant, i),
            merchant.vat,
            day('2026-08-01', i * 20),
          ),
        );
      }
    }
    const safe: boolean[] = [];
    const missed: string[] = [];
    const unsafe: { label: string; auto: boolean }[] = [];
    for (const merchant of MERCHANTS) {
      // Four days apart: a constant price within three days would rightly look like a duplicate.
      let n = 0;
      const date = () => day('2025-12-01', 4 * n++);
      for (const name of merchant.names) {
        for (let i = 0; i < 5; i++) {
          const kroner = kronerOf(merchant, next);
          const auto =
            (await submitted(world, expense(name, kroner, accountOf(merchant, i), merchant.vat, date()), EMPLOYEE))
              .proposal.status === 'APPROVED';
          if (typeof merchant.account === 'string') {
            safe.push(auto);
            if (!auto) missed.push(`${name} ${kroner.toFixed(2)}`);
          } else unsafe.push({ label: `ambiguous ${name}`, auto });
        }
        const wrong = merchant.account === '7320' ? '6800' : '7320';
        const kroner = kronerOf(merchant, next);
        for (const [label, amount, account] of [
          ['wrong account', kroner, wrong],
          ['amount × 10', kroner * 10, accountOf(merchant, 0)],
          ['amount ÷ 10', Math.max(1, Math.round(kroner * 10)) / 100, accountOf(merchant, 0)],
        ] as const) {
          const auto =
            (await submitted(world, expense(name, amount, account, merchant.vat, date()), EMPLOYEE)).proposal.status ===
            'APPROVED';
          unsafe.push({ label: `${label} ${name} ${formatMoney(Math.round(amount * 100))}`, auto });
        }
      }
    }
    // Look-alikes: each in a company that knows only its twin.
    for (const [known, lookAlike, account, vat] of LOOK_ALIKES) {
      const alone = await aWorld();
      const twin = MERCHANTS.find((m) => m.names.includes(known))!;
      for (let i = 0; i < 3; i++) {
        await submitAndReview(
          alone,
          expense(known, kronerOf(twin, next), accountOf(twin, 0), twin.vat, day('2026-08-01', i * 20)),
        );
      }
      for (let i = 0; i < 5; i++) {
        const auto =
          (
            await submitted(
              alone,
              expense(lookAlike, kronerOf(twin, next), account, vat, day('2026-10-01', i)),
              EMPLOYEE,
            )
          ).proposal.status === 'APPROVED';
        unsafe.push({ label: `look-alike ${lookAlike} (knows ${known})`, auto });
      }
    }
    const recall = safe.filter(Boolean).length / safe.length;
    const wrong = unsafe.filter((u) => u.auto);
    figures.push(
      `  safe repeats auto-approved: ${safe.filter(Boolean).length}/${safe.length} (recall ${(recall * 100).toFixed(1)} %); held: ${missed.join('; ')}`,
      `  wrong auto-approvals: ${wrong.length}/${unsafe.length} unsafe proposals ${wrong.map((w) => w.label).join('; ')}`,
    );
    expect(wrong).toEqual([]);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });

  it('over a 12-week stream, auto-approves more from week 1 with the history confirmed on day one', async () => {
    const START = '2026-11-23';
    /** The 12 weeks' purchases, the same for both runs. */
    const next = random(12);
    const stream: { date: string; merchant: Merchant; kroner: number; account: string; n: number }[] = [];
    for (let d = 0; d < 84; d++) {
      MERCHANTS.forEach((merchant) => {
        if (next() < 1 / merchant.every) {
          const n = stream.filter((s) => s.merchant === merchant).length;
          stream.push({
            date: day(START, d),
            merchant,
            kroner: kronerOf(merchant, next),
            account: accountOf(merchant, n),
            n,
          });
        }
      });
      if (next() < 1 / 7) {
        stream.push({
          date: day(START, d),
          merchant: { names: [`One-off Supplier ${d}`], account: '6800', vat: '25', kroner: [100, 3_000], every: 365 },
          kroner: kronerOf({ names: [], account: '', vat: '', kroner: [100, 3_000], every: 1 }, next),
          account: '6800',
          n: 0,
        });
      }
    }
    /** The year before: what the books already say (same merchants, the names suppliers invoice under). */
    const history: HistoricalBooking[] = [];
    MERCHANTS.forEach((merchant, m) => {
      for (let d = merchant.every, n = 0; d < 365; d += merchant.every, n++) {
        history.push({
          provider: 'tripletex',
          bookingId: `h-${m}-${n}`,
          kind: 'voucher',
          date: day('2025-11-22', d),
          merchant: merchant.names[n % merchant.names.length],
          accountCode: accountOf(merchant, n),
          vatRate: merchant.vat,
          amount: Math.round(kronerOf(merchant, next) * 100),
        });
      }
    });

    const weekly = async (withHistory: boolean): Promise<number[]> => {
      const world = await aWorld();
      world.clock.set(new Date(`${START}T08:00:00Z`));
      if (withHistory) {
        await importHistory(world, history);
        const suggestions = await world.listSuggestions.execute({ caller: ACCOUNTANT, limit: 200 });
        await world.confirmSuggestions.execute({ caller: ACCOUNTANT, ids: suggestions.items.map((p) => p.id) });
      }
      const shares: number[] = [];
      for (let week = 0; week < 12; week++) {
        const items = stream.filter((s) => s.date >= day(START, week * 7) && s.date < day(START, week * 7 + 7));
        let auto = 0;
        for (const item of items) {
          world.clock.set(new Date(`${item.date}T12:00:00Z`));
          const name = item.merchant.names[item.n % item.merchant.names.length];
          if (await submitAndReview(world, expense(name, item.kroner, item.account, item.merchant.vat, item.date)))
            auto++;
        }
        shares.push(items.length === 0 ? 0 : auto / items.length);
      }
      return shares;
    };
    const without = await weekly(false);
    const withHistory = await weekly(true);
    const pct = (share: number) => `${Math.round(share * 100)} %`.padStart(5);
    figures.push(
      `  stream: ${stream.length} proposals over 12 weeks; weekly auto-approved share`,
      `    without history:         ${without.map(pct).join(' ')}`,
      `    with history confirmed:  ${withHistory.map(pct).join(' ')}`,
    );
    expect(withHistory[0]).toBeGreaterThanOrEqual(0.5);
    expect(withHistory[0]).toBeGreaterThan(without[0]);
  });

  it('catches every repeat — exact, in other bytes with 0.01 more, two days off, in EUR — and never flags a monthly subscription', async () => {
    const world = await aWorld();
    const next = random(5);
    const repeats = 40;
    const caught = { exact: 0, otherBytes: 0, twoDaysOff: 0, inEuro: 0 };
    const heldAsDuplicate = (proposal: { status: string; reasons: readonly string[] }, ground = 'possible duplicate') =>
      proposal.status === 'PROPOSED' &&
      proposal.reasons.some((r) => r.startsWith('possible duplicate') && r.includes(ground));
    for (let i = 0; i < repeats; i++) {
      const merchant = MERCHANTS[i % MERCHANTS.length];
      const kroner = kronerOf(merchant, next);
      const date = day('2026-06-01', i);
      // Half of the receipts are photos, half PDFs.
      const bytes = i % 2 === 0 ? await receiptImage({ seed: 100 + i }) : receiptPdf({ note: `repeat ${i}` });
      const contentType = i % 2 === 0 ? 'image/png' : 'application/pdf';
      const submission = expense(merchant.names[0], kroner, accountOf(merchant, 0), merchant.vat, date, {
        receipt: upload(bytes, contentType),
      });
      await submitAndReview(world, submission);
      const variants = {
        exact: submission,
        // The same receipt with two bytes appended (a PDF takes trailing whitespace), and 0.01 more.
        otherBytes: expense(merchant.names[0], kroner + 0.01, accountOf(merchant, 0), merchant.vat, date, {
          receipt: upload(Buffer.concat([bytes, Buffer.from('\r\n')]), contentType),
        }),
        // Another receipt (a second photo of it), dated two days off.
        twoDaysOff: expense(merchant.names[0], kroner, accountOf(merchant, 0), merchant.vat, day(date, i % 2 ? 2 : -2)),
        // Another receipt, in EUR with the NOK amount paid.
        inEuro: expense(merchant.names[0], Math.round(kroner * 8.6) / 100, accountOf(merchant, 0), merchant.vat, date, {
          currency: 'EUR',
          amountNok: kroner.toFixed(2),
          vatTreatment: 'foreign_no_deduction',
        }),
      };
      for (const [variant, again] of Object.entries(variants) as [keyof typeof caught, typeof submission][]) {
        const { proposal } = await submitted(world, again, EMPLOYEE);
        if (heldAsDuplicate(proposal, variant === 'otherBytes' ? 'the same receipt' : 'possible duplicate')) {
          caught[variant]++;
        }
      }
    }
    const subscription = await aWorld();
    let flagged = 0;
    let autoApproved = 0;
    for (let month = 0; month < 12; month++) {
      const date = new Date(Date.UTC(2025, 11 + month, 15)).toISOString().slice(0, 10);
      const { proposal } = await submitted(
        subscription,
        expense('SPOTIFY AB *P2B9C1X', 119, '6800', '25', date),
        EMPLOYEE,
      );
      if (proposal.reasons.some((r) => r.startsWith('possible duplicate'))) flagged++;
      if (proposal.status === 'APPROVED') autoApproved++;
      if (proposal.status === 'PROPOSED')
        await subscription.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });
    }
    // The same subscription with a photo of each month's receipt, all printed from one template:
    // near pictures, a month apart.
    const photographed = await aWorld();
    let photosFlagged = 0;
    let photosAutoApproved = 0;
    for (let month = 0; month < 12; month++) {
      const date = new Date(Date.UTC(2025, 11 + month, 15)).toISOString().slice(0, 10);
      const photo = upload(await receiptImage({ seed: 77, variant: month }), 'image/png');
      const { proposal } = await submitted(
        photographed,
        expense('SPOTIFY AB *P2B9C1X', 119, '6800', '25', date, { receipt: photo }),
        EMPLOYEE,
      );
      if (proposal.reasons.some((r) => r.startsWith('possible duplicate'))) photosFlagged++;
      if (proposal.status === 'APPROVED') photosAutoApproved++;
      if (proposal.status === 'PROPOSED')
        await photographed.approveProposal.execute({ caller: ACCOUNTANT, proposalId: proposal.id });
    }
    figures.push(
      `  repeats caught of ${repeats} each: exact ${caught.exact}; same receipt in other bytes + 0.01 ${caught.otherBytes}; ` +
        `date ±2 days ${caught.twoDaysOff}; in EUR with amountNok ${caught.inEuro}`,
      `  monthly subscription flagged as duplicate: ${flagged}/12; auto-approved: ${autoApproved}/12`,
      `  the same with photos of one template: flagged ${photosFlagged}/12; auto-approved: ${photosAutoApproved}/12`,
    );
    expect(caught).toEqual({ exact: repeats, otherBytes: repeats, twoDaysOff: repeats, inEuro: repeats });
    expect(flagged).toBe(0);
    // Every month but the first, reviewed because the merchant was new.
    expect(autoApproved).toBe(11);
    expect(photosFlagged).toBe(0);
    expect(photosAutoApproved).toBe(11);
  });
});

/** Imports `bookings` as the company's history through the real use case, from a provider that pages them. */
async function importHistory(world: World, bookings: readonly HistoricalBooking[]): Promise<void> {
  const provider = {
    async *bookingHistoryPages(): AsyncGenerator<HistoryPage> {
      for (let i = 0; i < bookings.length; i += 50) {
        yield {
          bookings: bookings.slice(i, i + 50),
          cursor: i + 50 >= bookings.length ? null : String(i + 50),
          total: null,
        };
      }
    },
  };
  const record: ProviderConnectionRecord = {
    companyId: TEST_COMPANY,
    provider: 'tripletex',
    status: 'connected',
    externalCompanyId: '1',
    externalCompanyName: null,
    accessTokenExpiresAt: null,
    reauthorizationReason: null,
    connectedBy: 'anne@acme.no',
    connectedAt: new Date('2026-11-01T00:00:00Z'),
    updatedAt: new Date('2026-11-01T00:00:00Z'),
  };
  const repository = {
    find: async () => record,
    employeeToken: async () => 'token',
    markNeedsReauthorization: async () => undefined,
  } as unknown as ProviderConnectionRepository;
  await new ImportBookingHistoryHandler(
    world.history,
    new ProviderConnections(repository, testProviderRegistry()),
    provider as unknown as AccountingProvider,
    world.unitOfWork,
    new ApplicationContext(world.clock, world.ids),
  ).execute({ companyId: TEST_COMPANY, actor: 'onboarding' });
}
