import { DEFAULT_AUTO_APPROVE_MAX_AMOUNT, DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { describeCompanySettingsStoreContract } from '@app/testing';
import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmCompanySettingsStore } from './typeorm-company-settings.store';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describeCompanySettingsStoreContract(
  'TypeOrmCompanySettingsStore',
  () => new TypeOrmCompanySettingsStore(database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(database, companyId);
    },
  },
);

describe('TypeOrmCompanySettingsStore', () => {
  it('fills a setting missing from an older stored document with its default', async () => {
    const company = await createCompany(database);
    await database.dataSource.query(
      `INSERT INTO company_settings (company_id, settings) VALUES ($1, '{"executionDelayMinutes": 5}')`,
      [company],
    );

    expect(await new TypeOrmCompanySettingsStore(database.dataSource.manager).get(company)).toEqual({
      ...DEFAULT_COMPANY_SETTINGS,
      executionDelayMinutes: 5,
    });
  });

  it('gives a company that saved settings before the auto-approval limit existed the default limit', async () => {
    const company = await createCompany(database);
    await database.dataSource.query(
      `INSERT INTO company_settings (company_id, settings)
       VALUES ($1, '{"executionDelayMinutes": 15, "paymentAccount": "1920", "reviewChannel": null}')`,
      [company],
    );

    const settings = await new TypeOrmCompanySettingsStore(database.dataSource.manager).get(company);

    expect(settings.autoApproveMaxAmount).toBe(DEFAULT_AUTO_APPROVE_MAX_AMOUNT);
    expect(settings.autoApproveMaxAmount).toBe(1_000_000);
  });

  it('reads the bank payment account saved before the accounts by payment method as paymentAccounts.bank', async () => {
    const company = await createCompany(database);
    await database.dataSource.query(
      `INSERT INTO company_settings (company_id, settings) VALUES ($1, '{"paymentAccount": "1921"}')`,
      [company],
    );

    const settings = await new TypeOrmCompanySettingsStore(database.dataSource.manager).get(company);

    expect(settings.paymentAccounts).toEqual({ bank: '1921', company_card: null, employee: '2910' });
    expect(settings).not.toHaveProperty('paymentAccount');
  });

  it('disappears with its company', async () => {
    const company = await createCompany(database);
    const store = new TypeOrmCompanySettingsStore(database.dataSource.manager);
    await store.save(company, { ...DEFAULT_COMPANY_SETTINGS, executionDelayMinutes: 0 });

    await database.dataSource.query('DELETE FROM companies WHERE id = $1', [company]);

    const rows: unknown[] = await database.dataSource.query('SELECT 1 FROM company_settings WHERE company_id = $1', [
      company,
    ]);
    expect(rows).toEqual([]);
  });
});
