import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { aChainEvent } from '@app/testing';
import { Database, TypeOrmEventStore } from '@app/persistence';
import { testEventChainKeys, testKekSource } from '../libs/persistence/src/testing/test-keyring';
import { buildCli, ChainBroken } from '../apps/accounting-api/src/cli';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';

/**
 * `events verify` on the shared test database, always for one company (other suites' companies
 * are none of its business). Without a running sealer, new events are pending; `--seal` seals them.
 */
describe('npm run cli -- events verify', () => {
  let database: Database;
  let config: AppConfig;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-verify-'));
    config = loadConfig({
      DATABASE_URL: process.env.DATABASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // The shared test database's chain key is wrapped under the test keyring.
      KEK_SOURCE: testKekSource(),
    });
    database = await Database.open({ url: config.databaseUrl, dataDir, role: 'client', poolSize: 2 });
    // The chain is keyed, as by a service's first sealer pass (a fresh test database has no key yet).
    await testEventChainKeys(database.dataSource.manager).current();
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<{ lines: string[]; error?: Error }> {
    const lines: string[] = [];
    try {
      await buildCli(
        () => config,
        (line) => lines.push(line),
      ).parseAsync(['node', 'cli', 'events', 'verify', ...args]);
      return { lines };
    } catch (error) {
      return { lines, error: error as Error };
    }
  }

  async function aCompanyWithEvents(count: number): Promise<string> {
    const company = `verify-${randomBytes(5).toString('hex')}`;
    await database.dataSource.query('INSERT INTO companies (id, name) VALUES ($1, $2)', [company, 'Verify AS']);
    const chain = randomUUID();
    await new TypeOrmEventStore(database.dataSource.manager).append(
      Array.from({ length: count }, (_, i) => aChainEvent(company, chain, i + 1)),
    );
    return company;
  }

  it('reports new events as pending without writing, and seals them with --seal', async () => {
    const company = await aCompanyWithEvents(3);

    expect(await cli('--company', company)).toEqual({
      lines: ['ok: 3 event(s) of 1 company(ies), no break; 3 recent event(s) not sealed yet'],
    });
    expect(await cli('--company', company, '--seal')).toEqual({
      lines: ['sealed 3 event(s) of 1 company(ies)', 'ok: 3 event(s) of 1 company(ies), no break'],
    });
  });

  it('exits with ChainBroken and names the event when an old event was never sealed', async () => {
    const company = await aCompanyWithEvents(1);
    const old = aChainEvent(company, randomUUID(), 1);
    await database.dataSource.query(
      `INSERT INTO events (id, company_id, correlation_id, sequence, type, status, proposal_id, actor, channel, provider,
         api_calls, confidence, data, occurred_at, recorded_at)
       SELECT $1, $2, $3, $4, type, status, proposal_id, actor, channel, provider, api_calls, confidence, data, occurred_at,
              now() - interval '1 hour'
         FROM events WHERE company_id = $2`,
      [old.id, company, old.correlationId, 1],
    );

    const broken = await cli('--company', company);

    expect(broken.error).toBeInstanceOf(ChainBroken);
    expect(broken.lines).toEqual([
      expect.stringMatching(
        new RegExp(`^BREAK company=${company} event=${old.id} unsealed position=\\d+: .*not sealed`),
      ),
    ]);
    expect(await cli('--company', company, '--seal')).toEqual({
      lines: ['sealed 2 event(s) of 1 company(ies)', 'ok: 2 event(s) of 1 company(ies), no break'],
    });
  });

  it('catches, with --heads, events re-sealed by a running sealer after their seals were removed', async () => {
    const company = await aCompanyWithEvents(3);
    const heads = path.join(dataDir, `heads-${company}.json`);
    expect(await cli('--company', company, '--seal', '--heads', heads)).toEqual({
      lines: [
        'sealed 3 event(s) of 1 company(ies)',
        `recorded the newest link of 1 company(ies) in ${heads}`,
        'ok: 3 event(s) of 1 company(ies), no break',
      ],
    });

    // With the owner's rights: the newest seals removed, an event rewritten, the sealer left to seal it again.
    await database.dataSource.transaction(async (tx) => {
      await tx.query('ALTER TABLE events DISABLE TRIGGER USER');
      await tx.query('ALTER TABLE event_seals DISABLE TRIGGER USER');
      await tx.query('DELETE FROM event_seals WHERE company_id = $1 AND chain_index >= 2', [company]);
      await tx.query(
        `UPDATE events SET actor = 'eve@example.no'
          WHERE id = (SELECT id FROM events WHERE company_id = $1 ORDER BY position OFFSET 1 LIMIT 1)`,
        [company],
      );
      await tx.query('ALTER TABLE events ENABLE TRIGGER USER');
      await tx.query('ALTER TABLE event_seals ENABLE TRIGGER USER');
    });
    expect(await cli('--company', company, '--seal')).toEqual({
      lines: ['sealed 2 event(s) of 1 company(ies)', 'ok: 3 event(s) of 1 company(ies), no break'],
    });

    const broken = await cli('--company', company, '--heads', heads);
    expect(broken.error).toBeInstanceOf(ChainBroken);
    expect(broken.lines).toEqual([
      expect.stringMatching(new RegExp(`^BREAK company=${company} chain_index=3: .* holds another hash now`)),
    ]);
  });
});
