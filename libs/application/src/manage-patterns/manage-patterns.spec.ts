import { InvalidTransition, NotFound } from '@app/domain';
import {
  TEST_COMPANY,
  aSubmission,
  aUseCaseWorld,
  ACCOUNTANT,
  fieldsOf,
  OTHER_COMPANY,
  submitted,
  type UseCaseWorld,
  endUseCaseWorlds,
} from '@app/testing';
import { DuplicatePattern } from './manage-patterns.handlers';

afterAll(endUseCaseWorlds);

describe('managing patterns', () => {
  let world: UseCaseWorld;
  const spotify = { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' };

  beforeEach(() => {
    world = aUseCaseWorld();
  });

  describe('create', () => {
    it('saves a verified pattern with no approvals yet, audited as PatternSaved', async () => {
      const pattern = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      expect(pattern).toMatchObject({
        merchantKey: 'spotify',
        approvals: 0,
        verified: true,
        version: 1,
        retiredAt: null,
        writtenBy: ACCOUNTANT.actor,
        lastChangedBy: null,
        confirmedBy: [ACCOUNTANT.actor],
      });
      expect(await world.events.readChain(TEST_COMPANY, pattern.id)).toEqual([
        expect.objectContaining({
          type: 'PatternSaved',
          status: null,
          proposalId: null,
          actor: ACCOUNTANT.actor,
          data: expect.objectContaining({ cause: 'created' }),
        }),
      ]);
    });

    it("makes the merchant auto-approve, except for its writer's own proposals", async () => {
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      expect((await submitted(world)).proposal.status).toBe('APPROVED');
      expect((await submitted(world, undefined, ACCOUNTANT)).proposal.status).toBe('PROPOSED');
    });

    it('refuses a second active pattern for the same merchant, account and VAT rate', async () => {
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      await expect(
        world.createPattern.execute({ caller: ACCOUNTANT, pattern: { ...spotify, merchantName: 'SPOTIFY' } }),
      ).rejects.toBeInstanceOf(DuplicatePattern);
    });

    it('validates every field at once', async () => {
      expect(
        await fieldsOf(
          world.createPattern.execute({
            caller: ACCOUNTANT,
            pattern: { merchantName: '', accountCode: 'x', vatRate: '25%' },
          }),
        ),
      ).toEqual(['merchantName', 'accountCode', 'vatRate']);
    });
  });

  describe('edit', () => {
    it('changes the given fields, keeps the counts, and stores PatternSaved', async () => {
      const created = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      const edited = await world.editPattern.execute({
        caller: ACCOUNTANT,
        patternId: created.id,
        changes: { accountCode: '6550', verified: false },
      });

      expect(edited).toMatchObject({
        id: created.id,
        accountCode: '6550',
        vatRate: '25',
        verified: false,
        version: 2,
        approvals: 0,
      });
      expect((await world.events.readChain(TEST_COMPANY, created.id)).map((e) => [e.type, e.sequence])).toEqual([
        ['PatternSaved', 1],
        ['PatternSaved', 2],
      ]);
    });

    it('needs at least one change', async () => {
      const created = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      expect(
        await fieldsOf(world.editPattern.execute({ caller: ACCOUNTANT, patternId: created.id, changes: {} })),
      ).toEqual(['body']);
    });

    it('refuses to make it a twin of another active pattern', async () => {
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });
      const other = await world.createPattern.execute({
        caller: ACCOUNTANT,
        pattern: { ...spotify, accountCode: '6550' },
      });

      await expect(
        world.editPattern.execute({ caller: ACCOUNTANT, patternId: other.id, changes: { accountCode: '6540' } }),
      ).rejects.toBeInstanceOf(DuplicatePattern);
    });

    it("does not find another company's pattern", async () => {
      const created = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });

      await expect(
        world.editPattern.execute({
          caller: { ...ACCOUNTANT, company: OTHER_COMPANY },
          patternId: created.id,
          changes: { vatRate: '15' },
        }),
      ).rejects.toBeInstanceOf(NotFound);
    });
  });

  describe('retire', () => {
    it('keeps the pattern with its retiredAt, stores PatternRetired, and scoring ignores it from now on', async () => {
      const created = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });
      world.clock.advance({ days: 1 });

      const retired = await world.retirePattern.execute({ caller: ACCOUNTANT, patternId: created.id });

      expect(retired).toMatchObject({ id: created.id, retiredAt: world.clock.now(), version: 2 });
      expect((await world.events.readChain(TEST_COMPANY, created.id)).map((e) => e.type)).toEqual([
        'PatternSaved',
        'PatternRetired',
      ]);
      expect((await submitted(world, aSubmission())).proposal).toMatchObject({ status: 'PROPOSED', confidence: 0 });
    });

    it('refuses to retire a retired pattern, or edit it', async () => {
      const created = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });
      await world.retirePattern.execute({ caller: ACCOUNTANT, patternId: created.id });

      await expect(world.retirePattern.execute({ caller: ACCOUNTANT, patternId: created.id })).rejects.toBeInstanceOf(
        InvalidTransition,
      );
      await expect(
        world.editPattern.execute({ caller: ACCOUNTANT, patternId: created.id, changes: { vatRate: '15' } }),
      ).rejects.toBeInstanceOf(InvalidTransition);
    });

    it('does not find a missing pattern', async () => {
      await expect(world.retirePattern.execute({ caller: ACCOUNTANT, patternId: 'missing' })).rejects.toBeInstanceOf(
        NotFound,
      );
    });
  });

  describe('list', () => {
    it('pages through the active patterns, oldest first; retired ones only when asked', async () => {
      const a = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });
      world.clock.advance({ seconds: 1 });
      const b = await world.createPattern.execute({
        caller: ACCOUNTANT,
        pattern: { ...spotify, merchantName: 'Telenor ASA', accountCode: '6900' },
      });
      world.clock.advance({ seconds: 1 });
      const c = await world.createPattern.execute({
        caller: ACCOUNTANT,
        pattern: { ...spotify, merchantName: 'Adobe Inc', accountCode: '6550' },
      });
      await world.retirePattern.execute({ caller: ACCOUNTANT, patternId: b.id });

      const first = await world.listPatterns.execute({ caller: ACCOUNTANT, limit: 1 });
      const second = await world.listPatterns.execute({ caller: ACCOUNTANT, limit: 1, cursor: first.nextCursor });
      const all = await world.listPatterns.execute({ caller: ACCOUNTANT, includeRetired: true });

      expect([...first.items, ...second.items].map((p) => p.id)).toEqual([a.id, c.id]);
      expect(second.nextCursor).toBeNull();
      expect(all.items.map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    });

    it('filters by merchant, compared by normalised name', async () => {
      const a = await world.createPattern.execute({ caller: ACCOUNTANT, pattern: spotify });
      await world.createPattern.execute({ caller: ACCOUNTANT, pattern: { ...spotify, merchantName: 'Telenor ASA' } });

      expect(
        (await world.listPatterns.execute({ caller: ACCOUNTANT, merchant: 'SPOTIFY ab.' })).items.map((p) => p.id),
      ).toEqual([a.id]);
      expect(await fieldsOf(world.listPatterns.execute({ caller: ACCOUNTANT, merchant: '***' }))).toEqual(['merchant']);
    });
  });
});
