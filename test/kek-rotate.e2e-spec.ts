import { PassThrough } from 'node:stream';
import { ProviderConnectionRepository } from '@app/domain';
import { tripletexEmployeeToken } from '@app/sandbox';
import { DataSource } from 'typeorm';
import { buildCli } from '../apps/accounting-api/src/cli';
import { startOnboardingApp, type OnboardingTestApp } from './support/onboarding-app';

describe('npm run cli -- kek rotate', () => {
  let t: OnboardingTestApp;

  beforeAll(async () => {
    t = await startOnboardingApp({ LOG_LEVEL: 'silent' });
  });
  afterAll(async () => t?.close());

  it("re-wraps every company's DEK under a new KEK version and the sealed tokens stay readable", async () => {
    const company = await t.newCompany('kek');
    await t.app.get(ProviderConnectionRepository).connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: tripletexEmployeeToken(2) } },
      externalCompanyId: null,
      externalCompanyName: null,
      connectedBy: 'admin@kek.no',
    });
    // The test database is shared: DEKs of other suites' companies sit under their own keyrings, and
    // its event chain key under the test keyring; they are reported as failures (a non-zero exit).
    // This suite's company must be re-wrapped.
    const rotate = async () => {
      const lines: string[] = [];
      let failure: Error | undefined;
      const progress = new PassThrough();
      await buildCli(
        () => t.config,
        (line) => lines.push(line),
        { progress },
      )
        .parseAsync(['node', 'cli', 'kek', 'rotate'])
        .catch((error: Error) => (failure = error));
      // Not a terminal: the progress comes as lines (every 100 DEKs, and the last count).
      const steps = (progress.read() as Buffer).toString().split('\n').filter(Boolean);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(step).toMatch(/^kek rotate: \d+\/\? DEK\(s\) examined \(.+\)$/);
      if (failure) expect(failure.message).toMatch(/^could not re-wrap (the DEK of |the event chain key version)/);
      expect(failure?.message ?? '').not.toContain(company);
      return lines.join('\n');
    };
    const kekOf = async () =>
      (
        (await t.app
          .get(DataSource)
          .query('SELECT kek_id FROM company_keys WHERE company_id = $1', [company])) as Array<{ kek_id: string }>
      )[0].kek_id;

    expect(await kekOf()).toBe('local:v1');
    expect(await rotate()).toMatch(
      /^KEK local:v2: [1-9]\d* re-wrapped, \d+ already current, \d+ changed meanwhile, \d+ failed/,
    );
    expect(await kekOf()).toBe('local:v2');
    await expect(t.app.get(ProviderConnectionRepository).storedToken(company, 'tripletex')).resolves.toBe(
      tripletexEmployeeToken(2),
    );

    expect(await rotate()).toMatch(/^KEK local:v3: /);
    expect(await kekOf()).toBe('local:v3');
    await expect(t.app.get(ProviderConnectionRepository).storedToken(company, 'tripletex')).resolves.toBe(
      tripletexEmployeeToken(2),
    );
  });

  it('deletes a company by destroying its DEK first: its sealed tokens can no longer be opened', async () => {
    const company = await t.newCompany('gone');
    const connections = t.app.get(ProviderConnectionRepository);
    await connections.connect({
      companyId: company,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: tripletexEmployeeToken(3) } },
      externalCompanyId: null,
      externalCompanyName: null,
      connectedBy: 'admin@gone.no',
    });
    const db = t.app.get(DataSource);
    const sealed = (
      (await db.query('SELECT employee_token FROM provider_connections WHERE company_id = $1', [company])) as Array<{
        employee_token: Buffer;
      }>
    )[0]!.employee_token;
    const lines: string[] = [];
    await buildCli(
      () => t.config,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', 'company', 'delete', company, '--yes']);
    expect(lines).toEqual([`deleted company ${company}; its DEK is destroyed`]);
    expect(await db.query('SELECT 1 FROM company_keys WHERE company_id = $1', [company])).toEqual([]);
    expect(await db.query('SELECT 1 FROM companies WHERE id = $1', [company])).toEqual([]);
    // A copy of the ciphertext (a backup) is worthless without the DEK.
    const { TokenVault } = await import('@app/domain');
    await expect(
      t.app.get(TokenVault).open(company, 'tripletex', 'employee_token', { ciphertext: sealed }),
    ).rejects.toThrow();
    await expect(
      buildCli(
        () => t.config,
        () => undefined,
      ).parseAsync(['node', 'cli', 'company', 'delete', company, '--yes']),
    ).rejects.toThrow(/company .* was not found/);
  });
});
