import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@app/domain';
import { aChainEvent } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { testEventChainKeys } from '../testing/test-keyring';
import type { EventChainKeys } from './event-chain-keys';
import { verifyChain } from './event-chain-verifier';
import { eventHash, GENESIS_HASH, keyedEventHash } from './event-hash';
import { eventParameters } from './event.mapper';
import { EventSealer } from './event-sealer';
import { TypeOrmEventStore } from './typeorm-event-store';

// A database of its own: no other suite's sealer may seal these events behind the tests' back, and
// the tampering below stays out of the shared database.
let isolated: IsolatedDatabase;
let database: Database;
let keys: EventChainKeys;
/** The chain key the sealer keys new links with. */
let chainKey: Buffer;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('seal');
  database = isolated.database;
  keys = testEventChainKeys(database.dataSource.manager);
  chainKey = (await keys.current()).key;
});

afterAll(async () => {
  await isolated.dispose();
});

interface SealRow {
  chain_index: string;
  event_id: string;
  prev_hash: string;
  hash: string;
  key_version: number;
}

describe('EventSealer and the chain verifier', () => {
  let store: TypeOrmEventStore;
  let sealer: EventSealer;
  let company: string;

  beforeEach(async () => {
    store = new TypeOrmEventStore(database.dataSource.manager);
    sealer = new EventSealer(database.dataSource.manager, keys);
    company = await createCompany(database);
  });

  /** Appends a chain of `length` events to the company and returns them. */
  async function aStoredChain(length = 3, companyId = company): Promise<DomainEvent[]> {
    const chain = randomUUID();
    const events = Array.from({ length }, (_, i) => aChainEvent(companyId, chain, i + 1));
    await store.append(events);
    return events;
  }

  async function sealsOf(companyId = company): Promise<SealRow[]> {
    return database.dataSource.query(
      'SELECT chain_index, event_id, prev_hash, hash, key_version FROM event_seals WHERE company_id = $1 ORDER BY chain_index',
      [companyId],
    );
  }

  /**
   * Runs one statement as the table owner with the immutability triggers of `table` disabled, in
   * one transaction, so no other session ever sees the triggers off: the tamperer the chain is for.
   */
  async function asOwnerWithoutTriggers(
    table: 'events' | 'event_seals',
    sql: string,
    parameters: unknown[],
  ): Promise<void> {
    await database.dataSource.transaction(async (tx) => {
      await tx.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      await tx.query(sql, parameters);
      await tx.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    });
  }

  describe('sealing', () => {
    it('appends without a hash, and seals each company’s events into a keyed chain: prev_hash is the previous seal’s hash, hash is the chain key’s HMAC of it and the canonical event', async () => {
      const events = await aStoredChain(3);
      expect(await sealsOf()).toEqual([]);

      expect(await sealer.sealPending({ companyId: company })).toEqual({ sealed: 3, companies: 1 });

      const seals = await sealsOf();
      expect(seals.map((s) => [Number(s.chain_index), s.event_id])).toEqual(events.map((e, i) => [i + 1, e.id]));
      expect(seals[0].prev_hash).toBe(GENESIS_HASH);
      expect(seals[1].prev_hash).toBe(seals[0].hash);
      expect(seals[2].prev_hash).toBe(seals[1].hash);
      expect(seals.map((s) => s.key_version)).toEqual([1, 1, 1]);
      expect(seals[0].hash).toBe(keyedEventHash(chainKey, GENESIS_HASH, events[0]));
      expect(seals[2].hash).toBe(keyedEventHash(chainKey, seals[1].hash, events[2]));
      // Not the unkeyed SHA-256 anyone with the rows could recompute.
      expect(seals[0].hash).not.toBe(eventHash(GENESIS_HASH, events[0]));
    });

    it('is idempotent: a second pass seals nothing and changes no seal', async () => {
      await aStoredChain(2);
      await sealer.sealPending();
      const before = await sealsOf();

      expect(await sealer.sealPending()).toEqual({ sealed: 0, companies: 0 });
      expect(await new EventSealer(database.dataSource.manager, keys).sealPending()).toEqual({
        sealed: 0,
        companies: 0,
      });
      expect(await sealsOf()).toEqual(before);
    });

    it('continues a chain across passes and batches, from the head seal', async () => {
      const first = await aStoredChain(3);
      await sealer.sealPending({ batchSize: 2 });
      const second = await aStoredChain(5);

      expect(await sealer.sealPending({ companyId: company, batchSize: 2 })).toEqual({ sealed: 5, companies: 1 });

      const seals = await sealsOf();
      expect(seals.map((s) => s.event_id)).toEqual([...first, ...second].map((e) => e.id));
      expect(seals.map((s) => Number(s.chain_index))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({
        ok: true,
        eventsChecked: 8,
        pending: 0,
      });
    });

    it('looks each event since its mark up in event_seals by id: a pass never reads every seal ever made', async () => {
      // One transaction, so that the backend's own scan counts (pg_stat_xact_user_tables) see both
      // passes; the sealer's batches are savepoints in it.
      await database.dataSource.transaction(async (tx) => {
        const txStore = new TypeOrmEventStore(tx);
        const txSealer = new EventSealer(tx, keys);
        const append = (count: number) =>
          txStore.append(Array.from({ length: count }, (_, i) => aChainEvent(company, randomUUID(), i + 1)));
        const sealScans = async () => {
          const [row] = (await tx.query(
            `SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'event_seals'`,
          )) as { seq: number; idx: number }[];
          return row;
        };
        await append(2000);
        // The process's first pass: every event, by an anti-join; it sets the mark.
        expect(await txSealer.sealPending()).toMatchObject({ sealed: 2000 });
        await append(1000);
        const before = await sealScans();

        expect(await txSealer.sealPending()).toMatchObject({ sealed: 1000 });

        const after = await sealScans();
        expect(after.seq - before.seq).toBe(0);
        expect(after.idx - before.idx).toBeGreaterThan(0);
      });
      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({ ok: true, eventsChecked: 3000 });
    });

    it('keeps companies’ chains apart', async () => {
      const other = await createCompany(database);
      await aStoredChain(2);
      await aStoredChain(2, other);

      expect((await sealer.sealPending()).companies).toBeGreaterThanOrEqual(2);

      expect((await sealsOf(other))[0]).toMatchObject({ chain_index: '1', prev_hash: GENESIS_HASH });
      expect((await sealsOf(company))[0]).toMatchObject({ chain_index: '1', prev_hash: GENESIS_HASH });
      expect((await verifyChain(database.dataSource, keys, other)).ok).toBe(true);
    });

    it('seals in one chain an event committed later with a lower position than events already sealed', async () => {
      await sealer.sealPending(); // the low-water mark is in use from now on
      // A row whose position is taken before `early`'s but which commits only after `early` was sealed.
      const [position] = (await database.dataSource.query(
        "SELECT nextval(pg_get_serial_sequence('events', 'position')) AS position",
      )) as { position: string }[];
      const [early] = await aStoredChain(1);
      await sealer.sealPending();
      const late = aChainEvent(company, randomUUID(), 1);
      await database.dataSource.query(
        `INSERT INTO events (id, company_id, correlation_id, sequence, type, status, proposal_id, actor, channel, provider,
           api_calls, confidence, data, occurred_at, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [...eventParameters(late), position.position],
      );

      expect(await sealer.sealPending()).toEqual({ sealed: 1, companies: 1 });

      expect((await sealsOf()).map((s) => s.event_id)).toEqual([early.id, late.id]);
      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({ ok: true, eventsChecked: 2 });
    });

    it('seals both of two concurrent transactions when the one holding the lower position commits last (two connections)', async () => {
      await sealer.sealPending(); // the low-water mark is in use from now on
      const lower = database.dataSource.createQueryRunner();
      const higher = database.dataSource.createQueryRunner();
      const early = aChainEvent(company, randomUUID(), 1);
      const late = aChainEvent(company, randomUUID(), 1);
      try {
        await lower.startTransaction();
        await higher.startTransaction();
        await new TypeOrmEventStore(lower.manager).append([late]);
        await new TypeOrmEventStore(higher.manager).append([early]);
        await higher.commitTransaction();

        expect(await sealer.sealPending()).toEqual({ sealed: 1, companies: 1 });
        await lower.commitTransaction();
        expect(await sealer.sealPending()).toEqual({ sealed: 1, companies: 1 });
      } finally {
        for (const runner of [lower, higher]) {
          if (runner.isTransactionActive) await runner.rollbackTransaction();
          await runner.release();
        }
      }

      const positions = (await database.dataSource.query(
        'SELECT id FROM events WHERE company_id = $1 ORDER BY position',
        [company],
      )) as { id: string }[];
      expect(positions.map((p) => p.id)).toEqual([late.id, early.id]);
      expect((await sealsOf()).map((s) => s.event_id)).toEqual([early.id, late.id]);
      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({ ok: true, eventsChecked: 2 });
    });

    it('lets an append of a company proceed while another transaction of the same company is still open (two connections)', async () => {
      const open = database.dataSource.createQueryRunner();
      try {
        await open.startTransaction();
        await new TypeOrmEventStore(open.manager).append([aChainEvent(company, randomUUID(), 1)]);

        const started = Date.now();
        await aStoredChain(1);
        expect(Date.now() - started).toBeLessThan(1000);
        await open.commitTransaction();
      } finally {
        if (open.isTransactionActive) await open.rollbackTransaction();
        await open.release();
      }
    });

    it('makes two sealers in different instances, racing with appends, build one unbroken chain', async () => {
      const sealers = [
        new EventSealer(database.dataSource.manager, keys),
        new EventSealer(database.dataSource.manager, keys),
      ];
      for (let round = 0; round < 8; round++) {
        await Promise.all([
          aStoredChain(2),
          aStoredChain(3),
          ...sealers.map((s) => s.sealPending({ batchSize: 2 })),
          ...sealers.map((s) => s.sealPending({ companyId: company })),
        ]);
      }
      await Promise.all(sealers.map((s) => s.sealPending()));

      const seals = await sealsOf();
      expect(seals.map((s) => Number(s.chain_index))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({
        ok: true,
        eventsChecked: 40,
        pending: 0,
      });
    });
  });

  describe('verification', () => {
    it('reports recent unsealed events as pending, not as a break', async () => {
      await aStoredChain(2);
      await sealer.sealPending();
      await aStoredChain(3);

      expect(await verifyChain(database.dataSource, keys, company)).toMatchObject({
        ok: true,
        companiesChecked: 1,
        eventsChecked: 5,
        pending: 3,
        firstBreak: null,
      });
    });

    it('reports an event left unsealed longer than the grace period as a break', async () => {
      await aStoredChain(1);
      await sealer.sealPending();
      const old = aChainEvent(company, randomUUID(), 1);
      await database.dataSource.query(
        `INSERT INTO events (id, company_id, correlation_id, sequence, type, status, proposal_id, actor, channel, provider,
           api_calls, confidence, data, occurred_at, recorded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now() - interval '10 minutes')`,
        eventParameters(old),
      );

      const result = await verifyChain(database.dataSource, keys, company);

      expect(result.ok).toBe(false);
      expect(result.firstBreak).toMatchObject({
        companyId: company,
        eventId: old.id,
        chainIndex: null,
        reason: expect.stringMatching(/not sealed/),
      });
      expect(result.firstBreak?.position).toEqual(expect.any(Number));
      expect((await verifyChain(database.dataSource, keys, company, { unsealedGraceMs: 60 * 60_000 })).ok).toBe(true);
    });

    it('detects an event altered behind the triggers’ back after it was sealed', async () => {
      const events = await aStoredChain(3);
      await sealer.sealPending();
      await asOwnerWithoutTriggers(
        'events',
        `UPDATE events SET data = jsonb_set(data, '{amount}', '"1190.00"') WHERE id = $1`,
        [events[1].id],
      );

      const result = await verifyChain(database.dataSource, keys, company);

      expect(result.ok).toBe(false);
      expect(result.firstBreak).toMatchObject({
        companyId: company,
        eventId: events[1].id,
        chainIndex: 2,
        reason: expect.stringMatching(/altered/),
      });
      expect(result.firstBreak?.position).toEqual(expect.any(Number));
    });

    it('detects a removed seal, at the seal after the gap, even once the sealer has sealed that event again', async () => {
      const events = await aStoredChain(3);
      await sealer.sealPending();
      await asOwnerWithoutTriggers('event_seals', 'DELETE FROM event_seals WHERE event_id = $1', [events[1].id]);

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: events[2].id,
        chainIndex: 3,
        reason: expect.stringMatching(/seal\(s\) 2 were removed/),
      });
      await new EventSealer(database.dataSource.manager, keys).sealPending({ companyId: company });
      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({ chainIndex: 3 });
    });

    it('detects a removed event, at its seal', async () => {
      const events = await aStoredChain(3);
      await sealer.sealPending();
      // The foreign key keeps a sealed event from being deleted; a superuser can switch it off too.
      await database.dataSource.transaction(async (tx) => {
        await tx.query('SET LOCAL session_replication_role = replica');
        await tx.query('DELETE FROM events WHERE id = $1', [events[1].id]);
      });

      const result = await verifyChain(database.dataSource, keys, company);

      expect(result.firstBreak).toMatchObject({
        eventId: events[1].id,
        position: null,
        chainIndex: 2,
        reason: expect.stringMatching(/no longer exists/),
      });
    });

    it('detects a forged seal: a hash that does not cover the event as stored', async () => {
      await aStoredChain(2);
      await sealer.sealPending();
      const [head] = (await sealsOf()).slice(-1);
      const [event] = await aStoredChain(1);
      const claimed = { ...event, data: { ...(event.data as object), amount: '1.00' } } as DomainEvent;
      await database.dataSource.query(
        'INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash, key_version) VALUES ($1, 3, $2, $3, $4, 1)',
        [company, event.id, head.hash, keyedEventHash(chainKey, head.hash, claimed)],
      );

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: event.id,
        chainIndex: 3,
        reason: expect.stringMatching(/altered/),
      });
    });

    it('detects a forged seal that does not link to the chain', async () => {
      await aStoredChain(2);
      await sealer.sealPending();
      const [event] = await aStoredChain(1);
      await database.dataSource.query(
        'INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash, key_version) VALUES ($1, 3, $2, $3, $4, 1)',
        [company, event.id, GENESIS_HASH, keyedEventHash(chainKey, GENESIS_HASH, event)],
      );

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: event.id,
        chainIndex: 3,
        reason: expect.stringMatching(/removed, inserted or reordered/),
      });
    });

    it('detects a rewritten event whose seal the owner recomputed: without the chain key the hash cannot match', async () => {
      const events = await aStoredChain(3);
      await sealer.sealPending();
      const seals = await sealsOf();
      const forged = { ...events[1], actor: 'eve@example.no' } as DomainEvent;
      await asOwnerWithoutTriggers('events', 'UPDATE events SET actor = $2 WHERE id = $1', [forged.id, forged.actor]);
      await asOwnerWithoutTriggers('event_seals', 'UPDATE event_seals SET hash = $2 WHERE event_id = $1', [
        forged.id,
        eventHash(seals[1].prev_hash, forged),
      ]);

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: events[1].id,
        chainIndex: 2,
        reason: expect.stringMatching(/altered/),
      });
    });

    it('detects a rewritten event whose whole chain the owner re-sealed unkeyed (key version 0)', async () => {
      const events = await aStoredChain(3);
      await sealer.sealPending();
      const forged = { ...events[1], actor: 'eve@example.no' } as DomainEvent;
      await asOwnerWithoutTriggers('events', 'UPDATE events SET actor = $2 WHERE id = $1', [forged.id, forged.actor]);
      let prev = GENESIS_HASH;
      for (const event of [events[0], forged, events[2]]) {
        const hash = eventHash(prev, event);
        await asOwnerWithoutTriggers(
          'event_seals',
          'UPDATE event_seals SET prev_hash = $2, hash = $3, key_version = 0 WHERE event_id = $1',
          [event.id, prev, hash],
        );
        prev = hash;
      }

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: events[2].id,
        chainIndex: 3,
        reason: expect.stringMatching(/no anchor/),
      });
    });

    it('detects a chain re-sealed with a key of the owner’s own', async () => {
      const events = await aStoredChain(2);
      await sealer.sealPending();
      const ownKey = Buffer.alloc(32, 7);
      const forged = { ...events[0], actor: 'eve@example.no' } as DomainEvent;
      await asOwnerWithoutTriggers('events', 'UPDATE events SET actor = $2 WHERE id = $1', [forged.id, forged.actor]);
      let prev = GENESIS_HASH;
      for (const event of [forged, events[1]]) {
        const hash = keyedEventHash(ownKey, prev, event);
        await asOwnerWithoutTriggers(
          'event_seals',
          'UPDATE event_seals SET prev_hash = $2, hash = $3 WHERE event_id = $1',
          [event.id, prev, hash],
        );
        prev = hash;
      }

      expect((await verifyChain(database.dataSource, keys, company)).firstBreak).toMatchObject({
        eventId: events[0].id,
        chainIndex: 1,
        reason: expect.stringMatching(/altered/),
      });
    });

    it('refuses UPDATE, DELETE and TRUNCATE of seals, even with plain SQL', async () => {
      const [event] = await aStoredChain(1);
      await sealer.sealPending();

      await expect(
        database.dataSource.query(`UPDATE event_seals SET hash = $2 WHERE event_id = $1`, [event.id, GENESIS_HASH]),
      ).rejects.toThrow(/append-only: UPDATE/);
      await expect(
        database.dataSource.query('DELETE FROM event_seals WHERE event_id = $1', [event.id]),
      ).rejects.toThrow(/append-only: DELETE/);
      await expect(database.dataSource.query('TRUNCATE event_seals')).rejects.toThrow(/append-only: TRUNCATE/);
      expect(await sealsOf()).toHaveLength(1);
    });

    it('never writes: verifying leaves pending events unsealed', async () => {
      await aStoredChain(2);

      await verifyChain(database.dataSource, keys, company);

      expect(await sealsOf()).toEqual([]);
    });
  });
});
