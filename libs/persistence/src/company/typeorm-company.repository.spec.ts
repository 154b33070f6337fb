import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeCompanyRepositoryContract, ManualClock, SequentialIdGenerator } from '@app/testing';
import { EnvelopeTokenVault, LocalKeyringKms } from '@app/vault';
import type { Database } from '../database/database';
import { TypeOrmEventStore } from '../event-store/typeorm-event-store';
import { TypeOrmProviderConnectionRepository } from '../provider-connection/typeorm-provider-connection.repository';
import { openTestDatabase } from '../testing/test-database';
import { TypeOrmWrappedDekRepository } from '../vault/typeorm-wrapped-dek.repository';
import { TypeOrmCompanyRepository } from './typeorm-company.repository';

let database: Database;
let keyringDir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  keyringDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-keyring-'));
});

afterAll(async () => {
  await database.close();
  fs.rmSync(keyringDir, { recursive: true, force: true });
});

describeCompanyRepositoryContract('TypeOrmCompanyRepository', () => ({
  companies: new TypeOrmCompanyRepository(database.dataSource),
  connections: new TypeOrmProviderConnectionRepository(
    database.dataSource,
    new EnvelopeTokenVault(
      new LocalKeyringKms(path.join(keyringDir, 'keyring.json')),
      new TypeOrmWrappedDekRepository(database.dataSource.manager),
    ),
    new ManualClock(),
    new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff)),
  ),
  events: new TypeOrmEventStore(database.dataSource.manager),
}));
