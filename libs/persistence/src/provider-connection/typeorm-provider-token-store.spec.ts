import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProviderReauthorizationRequired, type OAuthTokens } from '@app/domain';
import { EnvelopeTokenVault, LocalKeyringKms } from '@app/vault';
import { describeProviderTokenStoreContract, ManualClock, SequentialIdGenerator } from '@app/testing';
import { Database } from '../database/database';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmWrappedDekRepository } from '../vault/typeorm-wrapped-dek.repository';
import { KeyedMutex } from './connection-locks';
import { TypeOrmProviderConnectionRepository } from './typeorm-provider-connection.repository';
import { TypeOrmProviderTokenStore } from './typeorm-provider-token-store';

let isolated: IsolatedDatabase;
let second: Database;
let keyringDir: string;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('tokens');
  keyringDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-keyring-'));
  // Another process: its own data source (and, below, its own process lock).
  const options = isolated.database.dataSource.options as { url?: string };
  second = await Database.open({ url: options.url, dataDir: '/nonexistent', role: 'client', poolSize: 4 });
});

afterAll(async () => {
  await second.close();
  await isolated.dispose();
  fs.rmSync(keyringDir, { recursive: true, force: true });
});

function vaultOver(database: Database): EnvelopeTokenVault {
  return new EnvelopeTokenVault(
    new LocalKeyringKms(path.join(keyringDir, 'keyring.json')),
    new TypeOrmWrappedDekRepository(database.dataSource.manager),
  );
}

describeProviderTokenStoreContract('TypeOrmProviderTokenStore', async () => {
  const database = isolated.database;
  await database.dataSource.query('DELETE FROM provider_connections');
  for (const id of ['acme', 'globex', 'nobody']) await createCompany(database, id);
  const clock = new ManualClock();
  const lock = new KeyedMutex();
  const ids = new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff));
  const store = new TypeOrmProviderTokenStore(database.dataSource, vaultOver(database), clock, ids, lock);
  const connections = new TypeOrmProviderConnectionRepository(
    database.dataSource,
    vaultOver(database),
    clock,
    ids,
    lock,
  );
  const other = new TypeOrmProviderTokenStore(second.dataSource, vaultOver(second), clock, ids, new KeyedMutex());
  return {
    store,
    other: () => other,
    async seed(companyId: string, tokens: OAuthTokens) {
      await connections.connect({
        companyId,
        grant: { provider: 'fiken', secret: { kind: 'oauth', tokens } },
        externalCompanyId: `${companyId}-as`,
        externalCompanyName: null,
        connectedBy: 'admin@example.no',
      });
    },
  };
});

describe('TypeOrmProviderConnectionRepository', () => {
  const clock = new ManualClock(new Date('2026-11-20T08:00:00.000Z'));
  const ids = new SequentialIdGenerator(Math.floor(Math.random() * 0xffff_ffff));
  let connections: TypeOrmProviderConnectionRepository;
  let store: TypeOrmProviderTokenStore;
  let company: string;

  beforeEach(async () => {
    const vault = vaultOver(isolated.database);
    connections = new TypeOrmProviderConnectionRepository(isolated.database.dataSource, vault, clock, ids);
    store = new TypeOrmProviderTokenStore(isolated.database.dataSource, vault, clock, ids);
    company = await createCompany(isolated.database);
  });

  /** Every column of the company's row, as the bytes the database holds. */
  const rawRow = async (): Promise<Buffer> => {
    const rows: Array<Record<string, unknown>> = await isolated.database.dataSource.query(
      'SELECT * FROM provider_connections WHERE company_id = $1',
      [company],
    );
    return Buffer.concat(
      Object.values(rows[0]).map((value) => (Buffer.isBuffer(value) ? value : Buffer.from(String(value)))),
    );
  };

  it('stores a Tripletex employee token sealed and opens it at call time', async () => {
    const record = await connections.connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: 'employee-token-plaintext-1' } },
      externalCompanyId: '1001',
      externalCompanyName: 'Demo AS',
      connectedBy: 'kari@demo.no',
    });
    expect(record).toMatchObject({
      companyId: company,
      provider: 'tripletex',
      status: 'connected',
      externalCompanyId: '1001',
      connectedBy: 'kari@demo.no',
    });
    expect(record.connectedAt.toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(Object.keys(record)).not.toContain('employeeToken');
    await expect(connections.storedToken(company, 'tripletex')).resolves.toBe('employee-token-plaintext-1');
    expect((await rawRow()).includes(Buffer.from('employee-token-plaintext-1'))).toBe(false);
  });

  it('replaces the connection when the company connects another provider', async () => {
    await connections.connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: 'e-1' } },
      externalCompanyId: null,
      externalCompanyName: null,
      connectedBy: 'a@x.no',
    });
    const tokens = {
      accessToken: 'access-plain',
      refreshToken: 'refresh-plain',
      expiresAt: Date.parse('2026-11-20T09:00:00.000Z'),
    };
    const record = await connections.connect({
      companyId: company,
      grant: { provider: 'fiken', secret: { kind: 'oauth', tokens } },
      externalCompanyId: 'demo-as',
      externalCompanyName: 'Demo AS',
      connectedBy: 'a@x.no',
    });
    expect(record).toMatchObject({ provider: 'fiken', accessTokenExpiresAt: new Date(tokens.expiresAt) });
    await expect(store.current(company, 'fiken')).resolves.toEqual(tokens);
    await expect(store.current(company, 'tripletex')).resolves.toBeNull();
    await expect(connections.storedToken(company, 'tripletex')).rejects.toBeInstanceOf(ProviderReauthorizationRequired);
    const raw = await rawRow();
    expect(raw.includes(Buffer.from('access-plain'))).toBe(false);
    expect(raw.includes(Buffer.from('refresh-plain'))).toBe(false);
  });

  it('marks a connection as needing re-authorisation and clears the mark on a new connection', async () => {
    await connections.connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: 'e-1' } },
      externalCompanyId: null,
      externalCompanyName: null,
      connectedBy: 'a@x.no',
    });
    await connections.markNeedsReauthorization(company, 'refused');
    expect(await connections.find(company)).toMatchObject({
      status: 'needs_reauthorization',
      reauthorizationReason: 'refused',
    });
    await expect(connections.storedToken(company, 'tripletex')).rejects.toBeInstanceOf(ProviderReauthorizationRequired);
    await connections.connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: 'e-2' } },
      externalCompanyId: null,
      externalCompanyName: null,
      connectedBy: 'a@x.no',
    });
    expect(await connections.find(company)).toMatchObject({ status: 'connected', reauthorizationReason: null });
    await expect(connections.storedToken(company, 'tripletex')).resolves.toBe('e-2');
  });

  it('finds nothing for a company that never connected', async () => {
    await expect(connections.find(company)).resolves.toBeNull();
  });
});
