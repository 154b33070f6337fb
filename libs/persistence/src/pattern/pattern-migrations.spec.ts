import {
  createPattern,
  editPattern,
  learnFromApproval,
  normalizeMerchant,
  transitionProposal,
  type DomainContext,
  type Pattern,
} from '@app/domain';
import { aPattern, aProposal, aReviewerOrigin, ManualClock, SequentialIdGenerator } from '@app/testing';
import { TypeOrmUnitOfWork } from '../unit-of-work/typeorm-unit-of-work';
import { backfillPatternSeparationOfDuties } from '../migrations/1763830000001-pattern-separation-of-duties';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { rekeyPatterns } from './rekey-patterns';
import { submissionRead } from '../testing/submission-read';
import { TypeOrmPatternStore } from './typeorm-pattern.store';

// Both rewrite every pattern of the database: they get one of their own.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('patterns');
});

afterAll(async () => {
  await isolated.dispose();
});

const manager = () => isolated.database.dataSource.manager;
const store = () => new TypeOrmPatternStore(manager());
const candidatesOf = async (companyId: string, merchantKey: string) =>
  (await submissionRead(manager(), companyId, { merchantKey })).candidates;
const keyOf = async (companyId: string, id: string) => (await store().findById(companyId, id))!.merchantKey;

/** A pattern as a version of the service before today's normalisation stored it: with the key it gave then. */
async function storedWithOldKey(companyId: string, id: string, merchantName: string, oldKey: string, fields = {}) {
  const pattern = aPattern({ id, companyId, merchantName, merchantKey: oldKey, ...fields });
  await store().save(pattern, null);
  return pattern;
}

describe('re-keying stored patterns when normalizeMerchant changes', () => {
  it('gives every pattern the key its name has today, so that new proposals meet it again', async () => {
    const company = await createCompany(isolated.database);
    await storedWithOldKey(company, 'rk-spotify', 'SPOTIFY AB *P2B9C1X', 'spotify ab p 2 b 9 c 1 x');
    await storedWithOldKey(company, 'rk-uber', 'UBER *TRIP 7XK2', 'uber trip 7 xk');
    await storedWithOldKey(company, 'rk-alesund', 'AALESUND SJOMAT', 'aalesund sjomat');
    await store().save(aPattern({ id: 'rk-current', companyId: company, merchantName: 'Telenor' }), null);

    const report = await rekeyPatterns(manager());

    expect(report).toEqual({ rekeyed: 3, kept: [] });
    expect(await keyOf(company, 'rk-spotify')).toBe('spotify');
    expect(await keyOf(company, 'rk-uber')).toBe('uber');
    expect(await keyOf(company, 'rk-alesund')).toBe('alesund sjomat');
    expect((await candidatesOf(company, normalizeMerchant('Spotify AB')))[0].id).toBe('rk-spotify');
    expect((await store().findById(company, 'rk-spotify'))!.version).toBe(1);
    expect(await rekeyPatterns(manager())).toEqual({ rekeyed: 0, kept: [] });
  });

  it('leaves a pattern whose new key an active twin holds under its old key; the strongest stale one wins', async () => {
    const company = await createCompany(isolated.database);
    await store().save(aPattern({ id: 'tw-current', companyId: company, merchantName: 'Uber', approvals: 1 }), null);
    await storedWithOldKey(company, 'tw-uber', 'UBER *TRIP 7XK2', 'uber trip 7 xk', { approvals: 40 });
    await storedWithOldKey(company, 'tw-weak', 'SPOTIFY AB *P2B9C1X', 'spotify ab p 2 b 9 c 1 x', { approvals: 2 });
    await storedWithOldKey(company, 'tw-strong', 'Spotify AB *Q7R8S9T', 'spotify ab q 7 r 8 s 9 t', { approvals: 9 });
    await storedWithOldKey(company, 'tw-retired', 'UBER *TRIP 1AB2', 'uber trip 1 ab', {
      retiredAt: new Date('2026-11-01T00:00:00Z'),
    });
    await storedWithOldKey(company, 'tw-other-account', 'UBER *TRIP 9ZZ9', 'uber trip 9 zz', { accountCode: '7140' });

    const report = await rekeyPatterns(manager());

    expect(report.kept.filter((k) => k.companyId === company)).toEqual([
      { id: 'tw-uber', companyId: company, key: 'uber trip 7 xk' },
      { id: 'tw-weak', companyId: company, key: 'spotify ab p 2 b 9 c 1 x' },
    ]);
    expect(await keyOf(company, 'tw-current')).toBe('uber');
    expect(await keyOf(company, 'tw-strong')).toBe('spotify');
    expect(await keyOf(company, 'tw-retired')).toBe('uber');
    expect(await keyOf(company, 'tw-other-account')).toBe('uber');
    // The one left behind never scores as the merchant; it still meets a key like its old one as a look-alike.
    expect((await candidatesOf(company, 'spotify')).map((p) => p.id)).toEqual(['tw-strong']);
    expect((await candidatesOf(company, 'spotify ab p 2 b 9')).map((p) => p.id)).toContain('tw-weak');
  });
});

describe('filling in who stands behind existing patterns', () => {
  let ctx: DomainContext;
  let uow: TypeOrmUnitOfWork;

  beforeEach(() => {
    ctx = { clock: new ManualClock('2026-11-20T10:00:00.000Z'), ids: new SequentialIdGenerator() };
    uow = new TypeOrmUnitOfWork(isolated.database.dataSource, ctx.clock, ctx.ids);
  });

  /** Stores a pattern change the way the service does: the row and its event together. */
  const store = (change: { pattern: Pattern; events: unknown[] }, expected: number | null) =>
    uow.run(async (ports) => {
      await ports.patterns.save(change.pattern, expected);
      await ports.events.append(change.events as Parameters<typeof ports.events.append>[0]);
      return change.pattern;
    });

  it('gives each pattern the writer, last changer and confirmers its events record', async () => {
    const company = await createCompany(isolated.database);
    const per = aReviewerOrigin({ actor: 'per@example.no' });
    const kari = aReviewerOrigin({ actor: 'kari@example.no' });
    const nora = aReviewerOrigin({ actor: 'nora@example.no' });
    const approved = (merchant: string) => {
      const proposed = aProposal('PROPOSED', { ctx, companyId: company, details: { merchant } });
      return transitionProposal(proposed, { type: 'Approve', origin: kari }, ctx).proposal;
    };

    // Written by per, confirmed by kari's and nora's approvals since (and per's own writing).
    const written = await store(
      createPattern(company, { merchantName: 'Telenor', accountCode: '6540', vatRate: '25' }, per, ctx),
      null,
    );
    const twice = await store(learnFromApproval(written, approved('Telenor'), kari, ctx), 1);
    const thrice = await store(learnFromApproval(twice, approved('Telenor'), nora, ctx), 2);
    // Learnt from an approval by kari, then edited by per: only per's edit counts since.
    const learnt = await store(learnFromApproval(null, approved('Fjordkraft'), kari, ctx), null);
    const edited = await store(editPattern(learnt, { accountCode: '6550' }, per, ctx), 1);
    // Written unverified: no confirmers.
    const unverified = await store(
      createPattern(company, { merchantName: 'Tibber', accountCode: '6540', vatRate: '25', verified: false }, per, ctx),
      null,
    );
    const expected = [thrice, edited, unverified];
    await manager().query(
      `UPDATE patterns SET written_by = NULL, last_changed_by = NULL, confirmed_by = '{}' WHERE company_id = $1`,
      [company],
    );

    await backfillPatternSeparationOfDuties(manager());

    for (const pattern of expected) {
      expect(await new TypeOrmPatternStore(manager()).findById(company, pattern.id)).toEqual(pattern);
    }
    expect(thrice).toMatchObject({ writtenBy: 'per@example.no', confirmedBy: ['nora@example.no', 'kari@example.no'] });
    expect(edited).toMatchObject({ writtenBy: null, lastChangedBy: 'per@example.no', confirmedBy: ['per@example.no'] });
    expect(unverified).toMatchObject({ writtenBy: 'per@example.no', confirmedBy: [] });
  });
});
