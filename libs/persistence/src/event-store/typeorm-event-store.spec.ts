import { randomUUID } from 'node:crypto';
import { ConcurrencyConflict, DomainEvent, ValidationFailed, type EventQuery } from '@app/domain';
import { aChainEvent, describeEventStoreContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { testEventChainKeys } from '../testing/test-keyring';
import { verifyChain } from './event-chain-verifier';
import { canonicalJson } from './event-hash';
import { EventSealer } from './event-sealer';
import { TypeOrmEventStore } from './typeorm-event-store';

let database: Database;

interface PlanNode {
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeEventStoreContract('TypeOrmEventStore', () => new TypeOrmEventStore(database.dataSource.manager), {
  prepareCompany: async (companyId) => {
    await createCompany(database, companyId);
  },
});

describe('TypeOrmEventStore', () => {
  let store: TypeOrmEventStore;
  let company: string;

  beforeEach(async () => {
    store = new TypeOrmEventStore(database.dataSource.manager);
    company = await createCompany(database);
  });

  /** Appends a chain of `length` events to the company and returns them. */
  async function aStoredChain(length = 3, companyId = company): Promise<DomainEvent[]> {
    const chain = randomUUID();
    const events = Array.from({ length }, (_, i) => aChainEvent(companyId, chain, i + 1));
    await store.append(events);
    return events;
  }

  describe('immutability, even with plain SQL', () => {
    it('refuses UPDATE', async () => {
      const [event] = await aStoredChain(1);
      await expect(
        database.dataSource.query(`UPDATE events SET actor = 'eve@example.no' WHERE id = $1`, [event.id]),
      ).rejects.toThrow(/append-only: UPDATE/);
      expect((await store.readChain(company, event.correlationId))[0].actor).toBe(event.actor);
    });

    it('refuses DELETE', async () => {
      const [event] = await aStoredChain(1);
      await expect(database.dataSource.query('DELETE FROM events WHERE id = $1', [event.id])).rejects.toThrow(
        /append-only: DELETE/,
      );
      expect(await store.readChain(company, event.correlationId)).toHaveLength(1);
    });

    it('refuses TRUNCATE', async () => {
      await aStoredChain(1);
      // Plain TRUNCATE already fails on event_seals' foreign key; CASCADE reaches the triggers.
      await expect(database.dataSource.query('TRUNCATE events')).rejects.toThrow(/foreign key|append-only: TRUNCATE/);
      await expect(database.dataSource.query('TRUNCATE events CASCADE')).rejects.toThrow(/append-only: TRUNCATE/);
      await expect(database.dataSource.query('TRUNCATE companies CASCADE')).rejects.toThrow(/append-only: TRUNCATE/);
    });
  });

  describe('event types: the domain table at write time, their shape in the schema', () => {
    it('refuses to store an event of a type the domain does not list, and stores nothing of its batch', async () => {
      const chain = randomUUID();
      const unknown = { ...aChainEvent(company, chain, 2), type: 'Unlisted' } as unknown as DomainEvent;
      await expect(store.append([aChainEvent(company, chain, 1), unknown])).rejects.toThrow(
        'refusing to store an event of unknown type Unlisted',
      );
      expect(await store.readChain(company, chain)).toEqual([]);
    });

    it('checks only the shape of the type in the table, so a new type needs no migration', async () => {
      const [event] = await aStoredChain(1);
      // Each insert in a transaction that is rolled back: no row of an unlisted type stays behind.
      const attempt = (type: string) =>
        database.dataSource.transaction(async (manager) => {
          await manager.query(
            `INSERT INTO events (id, company_id, correlation_id, sequence, type, actor, channel, data, occurred_at)
             SELECT $1, company_id, $2, 1, $3, actor, channel, data, occurred_at FROM events WHERE id = $4`,
            [randomUUID(), company, type, event.id],
          );
          throw new Error('inserted, rolled back');
        });
      await expect(attempt('not a type')).rejects.toThrow(/events_type_check/);
      await expect(attempt(`T${'a'.repeat(64)}`)).rejects.toThrow(/events_type_check/);
      await expect(attempt('SomeFutureType')).rejects.toThrow('inserted, rolled back');
    });
  });

  describe('positions', () => {
    it('lets exactly one of many appends racing for one position win; the others get ConcurrencyConflict', async () => {
      const chain = randomUUID();
      await store.append([aChainEvent(company, chain, 1)]);
      const contenders = Array.from({ length: 8 }, (_, i) =>
        aChainEvent(company, chain, 2, { actor: `user${i}@example.no` }),
      );

      const results = await Promise.allSettled(contenders.map((event) => store.append([event])));

      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect(result.reason).toBeInstanceOf(ConcurrencyConflict);
      }
      expect(await store.readChain(company, chain)).toHaveLength(2);
    });

    it('refuses a taken position sequentially, then accepts the next one', async () => {
      const [first] = await aStoredChain(1);

      await expect(store.append([aChainEvent(company, first.correlationId, 1)])).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
      await store.append([aChainEvent(company, first.correlationId, 2)]);

      expect((await store.readChain(company, first.correlationId)).map((e) => e.sequence)).toEqual([1, 2]);
    });

    it('makes a second transaction at the same position wait for the first, then fail with ConcurrencyConflict (two connections)', async () => {
      const chain = randomUUID();
      await store.append([aChainEvent(company, chain, 1)]);
      const first = database.dataSource.createQueryRunner();
      const second = database.dataSource.createQueryRunner();
      try {
        await first.startTransaction();
        await second.startTransaction();
        await new TypeOrmEventStore(first.manager).append([aChainEvent(company, chain, 2)]);
        let settled = false;
        const loser = new TypeOrmEventStore(second.manager)
          .append([aChainEvent(company, chain, 2, { actor: 'eve@example.no' })])
          .finally(() => (settled = true));
        const outcome = expect(loser).rejects.toBeInstanceOf(ConcurrencyConflict);

        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled).toBe(false); // waiting for the first transaction's row at that position
        await first.commitTransaction();
        await outcome;
      } finally {
        if (second.isTransactionActive) await second.rollbackTransaction();
        if (first.isTransactionActive) await first.rollbackTransaction();
        await first.release();
        await second.release();
      }
      expect((await store.readChain(company, chain)).map((e) => e.actor)).toEqual(['ola@example.no', 'ola@example.no']);
    });
  });

  describe('hash chain', () => {
    it('leaves hashing to the sealer: many racing appends, once sealed, form one unbroken chain per company', async () => {
      await Promise.all(Array.from({ length: 12 }, () => aStoredChain(2)));

      const keys = testEventChainKeys(database.dataSource.manager);
      await new EventSealer(database.dataSource.manager, keys).sealPending({ companyId: company });
      const result = await verifyChain(database.dataSource, keys, company);

      expect(result).toMatchObject({ ok: true, companiesChecked: 1, eventsChecked: 24, firstBreak: null, pending: 0 });
    });

    it('hashes canonical JSON: key order and dates do not matter', () => {
      expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: new Date(0) }, z: undefined })).toBe(
        '{"a":{"c":"1970-01-01T00:00:00.000Z","d":[2,{"e":0,"f":1}]},"b":1}',
      );
    });
  });

  describe('scoping and queries', () => {
    it('never lists or reads another company’s events', async () => {
      const other = await createCompany(database);
      const events = await aStoredChain(2, other);

      expect(await store.readChain(company, events[0].correlationId)).toEqual([]);
      expect((await store.list(company, { limit: 200 })).items).toEqual([]);
      expect((await store.list(other, { limit: 200 })).items).toEqual(events);
    });

    /** The index scans of the plan of the statement `list` sends, and whether any of them filters rows out. */
    async function scansOfList(companyId: string, query: EventQuery): Promise<{ index: string; filtered: number }[]> {
      return database.dataSource.transaction(async (tx) => {
        const query$ = jest.spyOn(tx.queryRunner!, 'query');
        await new TypeOrmEventStore(tx).list(companyId, query);
        const [sql, parameters] = query$.mock.calls[0] as [string, unknown[]];
        query$.mockRestore();
        // The costs that make a walk of the global position index look cheapest: heap pages read
        // in position order are sequential, the company's index's are not.
        await tx.query('SET LOCAL random_page_cost = 100');
        await tx.query('SET LOCAL enable_seqscan = off');
        await tx.query('SET LOCAL enable_bitmapscan = off');
        const [{ 'QUERY PLAN': plan }] = (await tx.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, parameters)) as {
          'QUERY PLAN': [{ Plan: PlanNode }];
        }[];
        const scans: { index: string; filtered: number }[] = [];
        const walk = (node: PlanNode): void => {
          if (node['Index Name'])
            scans.push({ index: node['Index Name'], filtered: node['Rows Removed by Filter'] ?? 0 });
          node.Plans?.forEach(walk);
        };
        walk(plan[0].Plan);
        return scans;
      });
    }

    it("lists a company's history and a type of it from a cursor on the company's own index, not through other companies' events", async () => {
      // Most of the table is the company's, so its events look evenly spread over positions; the
      // other company's come after them.
      const last = (await aStoredChain(3000)).at(-1)!;
      const other = await createCompany(database);
      await aStoredChain(300, other);
      await database.dataSource.query('ANALYZE events');
      const [cursorRow] = (await database.dataSource.query('SELECT position FROM events WHERE id = $1', [last.id])) as {
        position: string;
      }[];
      const cursor = Buffer.from(JSON.stringify([Number(cursorRow.position) - 1])).toString('base64url');

      const history = await store.list(company, { limit: 50, cursor });
      const ofType = await store.list(company, { limit: 50, cursor, type: last.type });

      expect(history.items).toEqual([last]);
      expect(ofType.items).toEqual([last]);
      expect(await scansOfList(company, { limit: 50, cursor })).toEqual([
        { index: 'events_company_position_idx', filtered: 0 },
      ]);
      expect(await scansOfList(company, { limit: 50, cursor, type: last.type })).toEqual([
        { index: 'events_company_type_idx', filtered: 0 },
      ]);
    });

    it('lists a time window in append order, events stored out of time order included', async () => {
      const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
      const [late, early, middle, inside] = [30, 10, 20, 25].map((minutes) =>
        aChainEvent(company, randomUUID(), 1, { occurredAt: at(minutes) }),
      );
      for (const event of [late, early, middle, inside]) await store.append([event]);

      const page = await store.list(company, { from: at(15), to: at(30), limit: 1 });
      const next = await store.list(company, { from: at(15), to: at(30), limit: 1, cursor: page.nextCursor });

      expect([...page.items, ...next.items]).toEqual([middle, inside]);
      expect(next.nextCursor).toBeNull();
      expect((await store.list(company, { from: at(15), limit: 50 })).items).toEqual([late, middle, inside]);
    });

    it('lists by status from heads that follow every insert into events, the latest sequence winning', async () => {
      const chain = randomUUID();
      const [proposed, approved] = [
        aChainEvent(company, chain, 1),
        aChainEvent(company, chain, 2, { type: 'Approved', status: 'APPROVED' }),
      ];
      // Stored out of order by two statements (as a restore might): the head stays at sequence 2.
      await store.append([approved]);
      await store.append([proposed]);

      expect((await store.list(company, { status: 'PROPOSED', limit: 50 })).items).toEqual([]);
      expect((await store.list(company, { status: 'APPROVED', limit: 50 })).items).toEqual([approved]);
      expect(
        await database.dataSource.query(
          'SELECT proposal_id, sequence, status FROM proposal_heads WHERE company_id = $1',
          [company],
        ),
      ).toEqual([{ proposal_id: approved.proposalId, sequence: 2, status: 'APPROVED' }]);
    });

    it('keeps APPROVED listing the Approved and ExecutionFailed events of a proposal still approved', async () => {
      const chain = randomUUID();
      await store.append([
        aChainEvent(company, chain, 1),
        aChainEvent(company, chain, 2, { type: 'Approved', status: 'APPROVED' }),
        aChainEvent(company, chain, 3, { type: 'ExecutionFailed', status: 'APPROVED', data: { message: 'down' } }),
      ]);
      const executed = randomUUID();
      await store.append([
        aChainEvent(company, executed, 1),
        aChainEvent(company, executed, 2, { type: 'Approved', status: 'APPROVED' }),
        aChainEvent(company, executed, 3, { type: 'Executed', status: 'EXECUTED', data: { bookingId: 'v-1' } }),
      ]);

      const approved = await store.list(company, { status: 'APPROVED', limit: 50 });
      const done = await store.list(company, { status: 'EXECUTED', limit: 50 });

      expect(approved.items.map((e) => [e.correlationId, e.type])).toEqual([
        [chain, 'Approved'],
        [chain, 'ExecutionFailed'],
      ]);
      expect(done.items.map((e) => e.correlationId)).toEqual([executed]);
    });

    it('refuses a cursor it did not issue and a limit outside 1–200', async () => {
      await expect(store.list(company, { limit: 10, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(ValidationFailed);
      await expect(store.list(company, { limit: 201 })).rejects.toBeInstanceOf(ValidationFailed);
      await expect(store.list(company, { limit: 0 })).rejects.toBeInstanceOf(ValidationFailed);
    });
  });
});
