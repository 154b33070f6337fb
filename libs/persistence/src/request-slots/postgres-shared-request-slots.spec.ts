import { randomUUID } from 'node:crypto';
import { describeSharedRequestSlotsContract } from '@app/testing';
import { openTestDatabase } from '../testing/test-database';
import type { Database } from '../database/database';
import { PostgresSharedRequestSlots } from './postgres-shared-request-slots';

let database: Database;
const made: PostgresSharedRequestSlots[] = [];

/** A participant of its own (its own connections), as another service instance would be. */
function participant(options: { waitMs?: number; applicationName?: string } = {}): PostgresSharedRequestSlots {
  const slots = new PostgresSharedRequestSlots(database.dataSource, options);
  made.push(slots);
  return slots;
}

async function closeAll(): Promise<void> {
  await Promise.all(made.splice(0).map((slots) => slots.close()));
}

beforeAll(async () => {
  database = await openTestDatabase(2);
});

afterAll(async () => {
  await closeAll();
  await database.close();
});

describeSharedRequestSlotsContract('PostgresSharedRequestSlots', () => ({ a: participant(), b: participant() }), {
  withWait: (waitMs) => ({ a: participant({ waitMs }), b: participant({ waitMs }) }),
  teardown: closeAll,
});

describe('PostgresSharedRequestSlots', () => {
  afterEach(closeAll);

  /** Ends the sessions of the participant named `applicationName` (a crashed process, a dropped connection). */
  async function killSessions(applicationName: string): Promise<number> {
    const rows = await database.dataSource.query<Array<{ killed: boolean }>>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
        WHERE application_name = $1 AND datname = current_database()`,
      [applicationName],
    );
    return rows.length;
  }

  it('a holder whose session dies loses the slot: the other instance gets it', async () => {
    const name = `crash-${randomUUID()}`;
    const holderName = `slots-${randomUUID().slice(0, 8)}`;
    const holder = participant({ applicationName: holderName });
    const other = participant({ waitMs: 20_000 });
    const slot = `test:${name}`;
    await holder.acquire(slot, 'urgent');
    const waiting = other.acquire(slot, 'urgent');
    expect(await killSessions(holderName)).toBe(1);
    const hold = await waiting;
    expect(hold).not.toBeNull();
    await hold?.release();
  });

  it('a lost connection does not wedge the adapter: the next request opens a new one', async () => {
    const applicationName = `slots-${randomUUID().slice(0, 8)}`;
    const slots = participant({ applicationName });
    const slot = `test:${randomUUID()}`;
    await (await slots.acquire(slot, 'urgent'))?.release();
    expect(await killSessions(applicationName)).toBe(1);
    // The broken session is noticed by the next call at the latest, which then fails as retryable …
    let hold = await slots.acquire(slot, 'urgent').catch(() => null);
    // … and the one after it works on a new connection.
    hold ??= await slots.acquire(slot, 'urgent');
    expect(hold).not.toBeNull();
    await hold?.release();
  });

  it('a closed adapter refuses, as retryable, instead of hanging', async () => {
    const slots = participant();
    await slots.close();
    await expect(slots.acquire(`test:${randomUUID()}`, 'urgent')).rejects.toThrow(/could not be taken/);
  });
});
