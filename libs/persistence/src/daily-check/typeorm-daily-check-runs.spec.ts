import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeDailyCheckRunsContract, ManualClock, SequentialIdGenerator } from '@app/testing';
import { EnvelopeTokenVault, LocalKeyringKms } from '@app/vault';
import { TypeOrmCompanyRepository } from '../company/typeorm-company.repository';
import { TypeOrmProviderConnectionRepository } from '../provider-connection/typeorm-provider-connection.repository';
import {
  createCompany,
  openIsolatedDatabase,
  uniqueCompanySlug,
  type IsolatedDatabase,
} from '../testing/test-database';
import { TypeOrmUnitOfWork } from '../unit-of-work/typeorm-unit-of-work';
import { TypeOrmWrappedDekRepository } from '../vault/typeorm-wrapped-dek.repository';
import { TypeOrmDailyCheckRuns } from './typeorm-daily-check-runs';

// Runs are scheduled and claimed across companies: a database of its own, so that no other spec's
// connections or runs take part.
let isolated: IsolatedDatabase;
let keyringDir: string;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('daily_checks');
  keyringDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-keyring-'));
});

afterAll(async () => {
  await isolated.dispose();
  fs.rmSync(keyringDir, { recursive: true, force: true });
});

describeDailyCheckRunsContract(
  'TypeOrmDailyCheckRuns',
  () => {
    const dataSource = isolated.database.dataSource;
    const clock = new ManualClock();
    const ids = new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff));
    const vault = new EnvelopeTokenVault(
      new LocalKeyringKms(path.join(keyringDir, 'keyring.json')),
      new TypeOrmWrappedDekRepository(dataSource.manager),
    );
    return {
      runs: new TypeOrmDailyCheckRuns(dataSource),
      unitOfWork: new TypeOrmUnitOfWork(dataSource, clock, ids),
      companies: new TypeOrmCompanyRepository(dataSource),
      connections: new TypeOrmProviderConnectionRepository(dataSource, vault, clock, ids),
    };
  },
  {
    teardown: async () => {
      await isolated.database.dataSource.query('DELETE FROM daily_check_runs; DELETE FROM provider_connections');
    },
  },
);

describe('TypeOrmDailyCheckRuns', () => {
  afterEach(async () => {
    await isolated.database.dataSource.query('DELETE FROM daily_check_runs; DELETE FROM provider_connections');
  });

  it('skips a run another transaction holds locked and takes the next due one, without waiting', async () => {
    const dataSource = isolated.database.dataSource;
    const runs = new TypeOrmDailyCheckRuns(dataSource);
    const [first, second] = [uniqueCompanySlug('a'), uniqueCompanySlug('b')].sort();
    for (const id of [first, second]) await createCompany(isolated.database, id);
    const now = new Date('2026-11-20T07:00:00.000Z');
    const lease = new Date('2026-11-20T07:10:00.000Z');
    await runs.schedule('2026-11-20', now, first);
    await runs.schedule('2026-11-20', now, second);
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query('SELECT 1 FROM daily_check_runs WHERE company_id = $1 FOR UPDATE', [first]);

      const claims = await runs.claim(now, lease, 'worker-a', { provider: 'none' }, 1);
      expect(claims.map((c) => c.companyId)).toEqual([second]);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    const claims = await runs.claim(now, lease, 'worker-a', { provider: 'none' }, 1);
    expect(claims.map((c) => c.companyId)).toEqual([first]);
  });
});
