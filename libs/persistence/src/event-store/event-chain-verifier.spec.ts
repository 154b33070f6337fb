import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@app/domain';
import { aChainEvent } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { testEventChainKeys } from '../testing/test-keyring';
import type { EventChainKeys } from './event-chain-keys';
import { EventChainVerifier } from './event-chain-verifier';
import { eventHash } from './event-hash';
import { EventSealer } from './event-sealer';
import { TypeOrmEventStore } from './typeorm-event-store';

// A database of its own: the tampering below stays out of the shared database.
let isolated: IsolatedDatabase;
let database: Database;
let keys: EventChainKeys;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('links');
  database = isolated.database;
  keys = testEventChainKeys(database.dataSource.manager);
  await keys.current();
});

afterAll(async () => {
  await isolated.dispose();
});

describe('EventChainVerifier.verifyEvents: the links of one chain’s events', () => {
  let store: TypeOrmEventStore;
  let sealer: EventSealer;
  let verifier: EventChainVerifier;
  let company: string;
  /** The chain checked, and another chain of the same company whose events interleave with it. */
  let mine: DomainEvent[];
  let theirs: DomainEvent[];

  beforeEach(async () => {
    store = new TypeOrmEventStore(database.dataSource.manager);
    sealer = new EventSealer(database.dataSource.manager, keys);
    verifier = new EventChainVerifier(database.dataSource.manager, keys);
    company = await createCompany(database);
    const [a, b] = [randomUUID(), randomUUID()];
    mine = [1, 2, 3].map((n) => aChainEvent(company, a, n));
    theirs = [1, 2].map((n) => aChainEvent(company, b, n));
    for (const event of [mine[0], theirs[0], mine[1], theirs[1], mine[2]]) await store.append([event]);
  });

  async function asOwnerWithoutTriggers(sql: string, parameters: unknown[]): Promise<void> {
    await database.dataSource.transaction(async (tx) => {
      await tx.query('ALTER TABLE events DISABLE TRIGGER USER');
      await tx.query('ALTER TABLE event_seals DISABLE TRIGGER USER');
      await tx.query(sql, parameters);
      await tx.query('ALTER TABLE events ENABLE TRIGGER USER');
      await tx.query('ALTER TABLE event_seals ENABLE TRIGGER USER');
    });
  }

  const chainOf = (events: DomainEvent[]) => events[0].correlationId;

  it('verifies each sealed event of the chain, and only those, with its place in the company’s chain', async () => {
    await sealer.sealPending({ companyId: company });

    const result = await verifier.verifyEvents(company, chainOf(mine));

    expect(result).toMatchObject({ ok: true, verified: 3, pending: 0, broken: 0, keyed: true });
    expect(result.events).toEqual([
      { eventId: mine[0].id, sequence: 1, chainIndex: 1, state: 'verified', reason: null },
      { eventId: mine[1].id, sequence: 2, chainIndex: 3, state: 'verified', reason: null },
      { eventId: mine[2].id, sequence: 3, chainIndex: 5, state: 'verified', reason: null },
    ]);
  });

  it('reports events not sealed yet as pending, and as broken once older than the grace period', async () => {
    expect(await verifier.verifyEvents(company, chainOf(mine))).toMatchObject({ ok: true, verified: 0, pending: 3 });

    const late = await verifier.verifyEvents(company, chainOf(mine), { unsealedGraceMs: -60_000 });

    expect(late).toMatchObject({ ok: false, pending: 0, broken: 3 });
    expect(late.events[0]).toMatchObject({
      eventId: mine[0].id,
      chainIndex: null,
      reason: expect.stringMatching(/not sealed/),
    });
  });

  it('catches an event of the chain altered in the database, naming it', async () => {
    await sealer.sealPending({ companyId: company });
    await asOwnerWithoutTriggers(`UPDATE events SET actor = 'eve@example.no' WHERE id = $1`, [mine[1].id]);

    const result = await verifier.verifyEvents(company, chainOf(mine));

    expect(result).toMatchObject({ ok: false, verified: 2, broken: 1 });
    expect(result.events[1]).toEqual({
      eventId: mine[1].id,
      sequence: 2,
      chainIndex: 3,
      state: 'broken',
      reason: 'the stored event does not match its seal: the event was altered',
    });
  });

  it('catches an altered event re-sealed with an unkeyed hash: its link is not the keyed one', async () => {
    await sealer.sealPending({ companyId: company });
    const [{ prev_hash: prev }] = (await database.dataSource.query(
      'SELECT prev_hash FROM event_seals WHERE event_id = $1',
      [mine[2].id],
    )) as { prev_hash: string }[];
    const forged = { ...mine[2], actor: 'eve@example.no' } as DomainEvent;
    await asOwnerWithoutTriggers(`UPDATE events SET actor = 'eve@example.no' WHERE id = $1`, [mine[2].id]);
    await asOwnerWithoutTriggers('UPDATE event_seals SET hash = $2, key_version = 0 WHERE event_id = $1', [
      mine[2].id,
      eventHash(prev, forged),
    ]);

    const result = await verifier.verifyEvents(company, chainOf(mine));

    expect(result.events[2]).toMatchObject({
      eventId: mine[2].id,
      state: 'broken',
      reason: expect.stringMatching(/key version 0/),
    });
  });

  it('catches a seal replaced before or after an event of the chain', async () => {
    await sealer.sealPending({ companyId: company });
    // theirs[0] is sealed at chain index 2, between mine[0] and mine[1]: its seal replaced by another.
    await asOwnerWithoutTriggers('UPDATE event_seals SET prev_hash = $2, hash = $3 WHERE event_id = $1', [
      theirs[0].id,
      'b'.repeat(64),
      'a'.repeat(64),
    ]);

    const result = await verifier.verifyEvents(company, chainOf(mine));

    expect(result.events.map((e) => [e.state, e.reason])).toEqual([
      ['broken', 'the seal after it (chain index 2) does not follow its hash: a seal was replaced'],
      ['broken', expect.stringMatching(/^prev_hash \w+ is not the previous seal's hash a{64}/)],
      ['verified', null],
    ]);
  });

  it('catches an event of the chain removed with its seal: the sequence gap and the missing seal', async () => {
    await sealer.sealPending({ companyId: company });
    await asOwnerWithoutTriggers('DELETE FROM event_seals WHERE event_id = $1', [mine[1].id]);
    await asOwnerWithoutTriggers('DELETE FROM events WHERE id = $1', [mine[1].id]);

    const result = await verifier.verifyEvents(company, chainOf(mine));

    expect(result.events).toEqual([
      { eventId: mine[0].id, sequence: 1, chainIndex: 1, state: 'verified', reason: null },
      {
        eventId: null,
        sequence: 2,
        chainIndex: null,
        state: 'broken',
        reason: 'the chain has no event at sequence 2: it was removed',
      },
      { eventId: mine[2].id, sequence: 3, chainIndex: 5, state: 'verified', reason: null },
    ]);
    // theirs[1], sealed right after the removed seal, shows it.
    expect((await verifier.verifyEvents(company, chainOf(theirs))).events[1]).toMatchObject({
      state: 'broken',
      reason: 'the seal before it (chain index 3) no longer exists: it was removed',
    });
  });

  it('says nothing of another chain’s altered event: that is what the whole-chain verify is for', async () => {
    await sealer.sealPending({ companyId: company });
    await asOwnerWithoutTriggers(`UPDATE events SET actor = 'eve@example.no' WHERE id = $1`, [theirs[0].id]);

    expect(await verifier.verifyEvents(company, chainOf(mine))).toMatchObject({ ok: true, verified: 3 });
    expect(await verifier.verify(company)).toMatchObject({ ok: false, firstBreak: { eventId: theirs[0].id } });
  });

  it('checks nothing of another company', async () => {
    await sealer.sealPending({ companyId: company });
    const other = await createCompany(database);

    expect(await verifier.verifyEvents(other, chainOf(mine))).toMatchObject({ ok: true, events: [] });
  });
});
