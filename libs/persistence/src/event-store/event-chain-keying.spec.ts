import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalKeyringKms } from '@app/vault';
import type { DomainEvent } from '@app/domain';
import { aChainEvent } from '@app/testing';
import { runMigrations, type Database } from '../database/database';
import { MIGRATIONS } from '../migrations';
import { KeyEventChain1764153700001 } from '../migrations/1764153700001-key-event-chain';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { testEventChainKeys } from '../testing/test-keyring';
import { EventChainKeyMissing, EventChainKeys } from './event-chain-keys';
import { EventChainVerifier, verifyChain } from './event-chain-verifier';
import { anchorMac, eventHash, GENESIS_HASH, keyedEventHash } from './event-hash';
import { EventSealer } from './event-sealer';
import { TypeOrmEventStore } from './typeorm-event-store';

/**
 * A database whose chains were sealed before the chain was keyed (unkeyed SHA-256 links, as the
 * releases before KeyEventChain sealed them), then migrated: the old links keep verifying, the
 * first sealer pass makes the key and anchors them, and neither they nor the keyed links after
 * them can be rewritten and re-hashed without the key.
 */
let isolated: IsolatedDatabase;
let database: Database;
let keys: EventChainKeys;

const BEFORE_KEYING = MIGRATIONS.slice(0, MIGRATIONS.indexOf(KeyEventChain1764153700001));

interface Legacy {
  company: string;
  events: DomainEvent[];
}

/** Runs the migrations before keying by hand and records them, so that `runMigrations` runs only the rest. */
async function migrateToBeforeKeying(): Promise<void> {
  const runner = database.dataSource.createQueryRunner();
  try {
    for (const Migration of BEFORE_KEYING) await new Migration().up(runner);
  } finally {
    await runner.release();
  }
  await database.dataSource.query(
    'CREATE TABLE migrations (id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name character varying NOT NULL)',
  );
  for (const Migration of BEFORE_KEYING) {
    const { name } = new Migration();
    await database.dataSource.query('INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)', [
      name!.slice(-13),
      name,
    ]);
  }
}

/** A company with `length` events, sealed as the releases before keying did. */
async function aLegacyChain(length: number): Promise<Legacy> {
  const company = await createCompany(database);
  const chain = randomUUID();
  const events = Array.from({ length }, (_, i) => aChainEvent(company, chain, i + 1));
  await new TypeOrmEventStore(database.dataSource.manager).append(events);
  let prev = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    const hash = eventHash(prev, event);
    await database.dataSource.query(
      'INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash) VALUES ($1, $2, $3, $4, $5)',
      [company, index + 1, event.id, prev, hash],
    );
    prev = hash;
  }
  return { company, events };
}

async function seals(company: string): Promise<{ chain_index: string; hash: string; key_version: number }[]> {
  return database.dataSource.query(
    'SELECT chain_index, hash, key_version FROM event_seals WHERE company_id = $1 ORDER BY chain_index',
    [company],
  );
}

async function asOwnerWithoutTriggers(table: string, sql: string, parameters: unknown[]): Promise<void> {
  await database.dataSource.transaction(async (tx) => {
    await tx.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    await tx.query(sql, parameters);
    await tx.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  });
}

describe('keying the event chain of a database sealed before chain keys existed', () => {
  let clean: Legacy;
  let rewritten: Legacy;
  let extended: Legacy;
  let grown: Legacy;
  let unsealed: { company: string; events: DomainEvent[] };

  beforeAll(async () => {
    isolated = await openIsolatedDatabase('keying', { migrate: false });
    database = isolated.database;
    await migrateToBeforeKeying();
    clean = await aLegacyChain(3);
    rewritten = await aLegacyChain(3);
    extended = await aLegacyChain(2);
    grown = await aLegacyChain(2);
    // Appended just before the upgrade, not sealed yet by the old sealer.
    const company = await createCompany(database);
    const chain = randomUUID();
    unsealed = { company, events: [aChainEvent(company, chain, 1), aChainEvent(company, chain, 2)] };
    await new TypeOrmEventStore(database.dataSource.manager).append(unsealed.events);

    // KeyEventChain first, then every migration after it.
    expect(await runMigrations(database.dataSource)).toEqual(
      MIGRATIONS.slice(BEFORE_KEYING.length).map((migration) => migration.name),
    );
    expect(MIGRATIONS[BEFORE_KEYING.length].name).toBe('KeyEventChain1764153700001');
    keys = testEventChainKeys(database.dataSource.manager);
  });

  afterAll(async () => {
    await isolated.dispose();
  });

  it('keeps the old links as they were (key version 0) and verifies them unkeyed until the first key exists', async () => {
    expect((await seals(clean.company)).map((s) => s.key_version)).toEqual([0, 0, 0]);
    const result = await verifyChain(database.dataSource, keys);
    expect(result).toMatchObject({ ok: true, keyed: false, pending: 2 });
  });

  it('refuses an unkeyed link from a sealer of an older release once migrated', async () => {
    const [event] = unsealed.events;
    await expect(
      database.dataSource.query(
        'INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash) VALUES ($1, 1, $2, $3, $4)',
        [unsealed.company, event.id, GENESIS_HASH, eventHash(GENESIS_HASH, event)],
      ),
    ).rejects.toThrow(/key_version/);
  });

  it('makes the key on the first seal, anchors every company’s unkeyed links, and keys the links after them', async () => {
    const sealer = new EventSealer(database.dataSource.manager, keys);
    expect(await sealer.sealPending()).toMatchObject({ sealed: 2 });
    const { version, key } = await keys.current();
    expect(version).toBe(1);

    const anchors = (await database.dataSource.query(
      'SELECT company_id, chain_index, hash, key_version, mac FROM event_chain_anchors ORDER BY company_id',
    )) as { company_id: string; chain_index: string; hash: string; key_version: number; mac: string }[];
    expect(anchors.map((a) => a.company_id).sort()).toEqual(
      [clean, rewritten, extended, grown].map((l) => l.company).sort(),
    );
    const cleanHead = (await seals(clean.company))[2];
    expect(anchors.find((a) => a.company_id === clean.company)).toEqual({
      company_id: clean.company,
      chain_index: '3',
      hash: cleanHead.hash,
      key_version: 1,
      mac: anchorMac(key, clean.company, 3, cleanHead.hash),
    });
    // The company without seals got keyed links from the start, no anchor.
    const keyed = await seals(unsealed.company);
    expect(keyed.map((s) => s.key_version)).toEqual([1, 1]);
    expect(keyed[0].hash).toBe(keyedEventHash(key, GENESIS_HASH, unsealed.events[0]));

    // A legacy chain continued after keying: unkeyed prefix, keyed links on top.
    const more = aChainEvent(grown.company, randomUUID(), 1);
    await new TypeOrmEventStore(database.dataSource.manager).append([more]);
    await sealer.sealPending({ companyId: grown.company });
    expect((await seals(grown.company)).map((s) => s.key_version)).toEqual([0, 0, 1]);

    expect(await verifyChain(database.dataSource, keys)).toMatchObject({ ok: true, keyed: true, pending: 0 });
  });

  it('detects an old event rewritten with its unkeyed links recomputed: the anchor pinned the old hash', async () => {
    const forged = { ...rewritten.events[0], actor: 'eve@example.no' } as DomainEvent;
    await asOwnerWithoutTriggers('events', 'UPDATE events SET actor = $2 WHERE id = $1', [forged.id, forged.actor]);
    let prev = GENESIS_HASH;
    for (const event of [forged, ...rewritten.events.slice(1)]) {
      const hash = eventHash(prev, event);
      await asOwnerWithoutTriggers(
        'event_seals',
        'UPDATE event_seals SET prev_hash = $2, hash = $3 WHERE event_id = $1',
        [event.id, prev, hash],
      );
      prev = hash;
    }

    const result = await verifyChain(database.dataSource, keys, rewritten.company);

    expect(result.ok).toBe(false);
    expect(result.firstBreak).toMatchObject({
      eventId: rewritten.events[2].id,
      chainIndex: 3,
      reason: expect.stringMatching(/anchor pinned/),
    });
    expect(await verifyChain(database.dataSource, keys, clean.company)).toMatchObject({ ok: true });
    // The check of one chain's events: each unkeyed link holds on its own, the anchored hash does not.
    const links = await new EventChainVerifier(database.dataSource.manager, keys).verifyEvents(
      rewritten.company,
      rewritten.events[0].correlationId,
    );
    expect(links).toMatchObject({ ok: false, broken: 3 });
    expect(links.events[0].reason).toMatch(/no longer holds the anchored hash at chain index 3/);
  });

  it('detects an unkeyed link added after the anchor, and an anchor that does not verify', async () => {
    const extra = aChainEvent(extended.company, randomUUID(), 1);
    await new TypeOrmEventStore(database.dataSource.manager).append([extra]);
    const [, head] = await seals(extended.company);
    await database.dataSource.query(
      'INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash, key_version) VALUES ($1, 3, $2, $3, $4, 0)',
      [extended.company, extra.id, head.hash, eventHash(head.hash, extra)],
    );

    expect((await verifyChain(database.dataSource, keys, extended.company)).firstBreak).toMatchObject({
      eventId: extra.id,
      chainIndex: 3,
      reason: expect.stringMatching(/anchor pinned 2/),
    });
    const verifier = new EventChainVerifier(database.dataSource.manager, keys);
    expect((await verifier.verifyEvents(extended.company, extra.correlationId)).events).toEqual([
      expect.objectContaining({
        eventId: extra.id,
        state: 'broken',
        reason: expect.stringMatching(/lies after the 2/),
      }),
    ]);

    const [cleanHead] = (await seals(clean.company)).slice(-1);
    await asOwnerWithoutTriggers(
      'event_chain_anchors',
      'UPDATE event_chain_anchors SET mac = $2 WHERE company_id = $1',
      [clean.company, anchorMac(Buffer.alloc(32, 1), clean.company, 3, cleanHead.hash)],
    );
    expect((await verifyChain(database.dataSource, keys, clean.company)).firstBreak).toMatchObject({
      chainIndex: 3,
      reason: expect.stringMatching(/forged/),
    });
    expect(
      (await verifier.verifyEvents(clean.company, clean.events[0].correlationId)).events.map((e) => e.reason),
    ).toEqual(Array(3).fill(expect.stringMatching(/forged/)));
  });

  it('says which KEK it needs when the chain key cannot be unwrapped with the KMS at hand', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-other-keyring-'));
    try {
      const elsewhere = new EventChainKeys(
        database.dataSource.manager,
        new LocalKeyringKms(path.join(directory, 'k.json')),
      );
      await expect(elsewhere.version(1)).rejects.toThrow(
        /chain key version 1 \(wrapped under local:v1\): is KEK_SOURCE/,
      );
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses to make a new key when the key was removed while keyed links and anchors remain', async () => {
    await asOwnerWithoutTriggers('event_chain_anchors', 'DELETE FROM event_chain_anchors', []);
    await asOwnerWithoutTriggers('event_chain_keys', 'DELETE FROM event_chain_keys', []);
    const fresh = testEventChainKeys(database.dataSource.manager);

    await expect(fresh.current()).rejects.toThrow(EventChainKeyMissing);
    await expect(new EventSealer(database.dataSource.manager, fresh).sealPending()).rejects.toThrow(/key was removed/);
    const result = await verifyChain(database.dataSource, fresh, unsealed.company);
    expect(result.firstBreak).toMatchObject({ reason: expect.stringMatching(/key version 1, which does not exist/) });
  });
});
