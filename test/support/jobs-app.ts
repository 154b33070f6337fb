import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import {
  Clock,
  CompanyRepository,
  IdGenerator,
  ProviderConnectionRepository,
  submitProposal,
  transitionProposal,
  withExpenseDefaults,
  type Proposal,
} from '@app/domain';
import { UnitOfWork } from '@app/application';
import { receiptPdf } from '@app/testing';
import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  sandboxUrls,
  type Sandbox,
  type SandboxOptions,
  type SandboxUrls,
} from '@app/sandbox';
import { AppModule } from '../../apps/accounting-api/src/app.module';
import { configureApp } from '../../apps/accounting-api/src/bootstrap';
import { loadConfig, type AppConfig } from '../../apps/accounting-api/src/config/app-config';
import { BACKGROUND_JOBS_OFF } from './test-app';
import { ManualClock } from './manual-clock';
import { makeKey, sign, validClaims, writeJwks, type Claims, type TestKey } from './gateway-keys';

/** A provider sandbox served from the test process, with a hook in front of it (crash tests kill on it). */
export interface HostedSandbox extends SandboxUrls {
  sandbox: Sandbox;
  /** Called for every request before the sandbox handles it. */
  setHook(hook: RequestHandler | null): void;
  close(): Promise<void>;
}

export async function hostSandbox(options: SandboxOptions = {}): Promise<HostedSandbox> {
  const sandbox = createSandbox(options);
  let hook: RequestHandler | null = null;
  const outer = express();
  outer.use((req, res, next) => (hook ? hook(req, res, next) : next()));
  outer.use(sandbox.app);
  const server = outer.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    ...sandboxUrls(`http://127.0.0.1:${port}`),
    sandbox,
    setHook: (next) => {
      hook = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The environment of a service pointed at a hosted sandbox (real adapters, sandbox credentials). */
export function sandboxEnv(urls: SandboxUrls): Record<string, string> {
  return {
    PROVIDER_SANDBOX: 'off',
    TRIPLETEX_CONSUMER_TOKEN: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
    TRIPLETEX_BASE_URL: urls.tripletexApi,
    FIKEN_CLIENT_ID: SANDBOX_FIKEN_CLIENT_ID,
    FIKEN_CLIENT_SECRET: SANDBOX_FIKEN_CLIENT_SECRET,
    FIKEN_API_URL: urls.fikenApi,
    FIKEN_OAUTH_URL: urls.fikenOAuth,
  };
}

export interface JobsApp {
  app: NestExpressApplication;
  http: TestAgent;
  config: AppConfig;
  clock: ManualClock;
  dataDir: string;
  token(company: string, overrides?: Claims): string;
  newCompany(prefix?: string): Promise<string>;
  /** Connects `company` to sandbox company `index` of `provider` (as onboarding would). */
  connect(company: string, provider: 'tripletex' | 'fiken', index?: number): Promise<void>;
  /** An APPROVED proposal of `company`, due now (a reviewer approved it), with a PDF receipt. */
  approvedProposal(
    company: string,
    overrides?: {
      amount?: string;
      date?: string;
      receipt?: boolean;
      accountCode?: string;
      /** Makes it a supplier invoice of this supplier (organisation number) and invoice number, due in 14 days. */
      supplierInvoice?: { organizationNumber: string; invoiceNumber: string };
    },
  ): Promise<Proposal>;
  query<T = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface JobsAppOptions {
  hosted: SandboxUrls & { sandbox: Sandbox };
  /** Service environment (AppConfig keys). */
  env?: Record<string, string>;
  /** The jobs' environment (EXECUTOR_*, DAILY_CHECK_*, OUTBOX_*), part of the service configuration. */
  jobsEnv?: Record<string, string>;
  /** The database (default: the shared test database). */
  databaseUrl?: string;
  /** Share a data directory (the KEK keyring) between instances; a fresh one otherwise. */
  dataDir?: string;
  clock?: ManualClock;
}

const TEST_KEY: TestKey = makeKey('jobs-key-1');

/** The whole service over HTTP on the test database, its providers being a hosted sandbox. */
export async function startJobsApp(options: JobsAppOptions): Promise<JobsApp> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'acct-jobs-'));
  const jwksFile = path.join(dataDir, 'gateway-jwks.json');
  if (!fs.existsSync(jwksFile)) writeJwks(jwksFile, [TEST_KEY]);
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl ?? process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    GATEWAY_JWKS: jwksFile,
    LOG_LEVEL: 'silent',
    SEED_DEMO_COMPANY: 'false',
    MIGRATE_ON_BOOT: 'false',
    DB_POOL_SIZE: '6',
    PROVIDER_TIMEOUT_MS: '3000',
    PROVIDER_RETRIES: '1',
    // Fiken's pace between request starts (250 ms in production) is test/fiken-request-slot's subject.
    FIKEN_REQUEST_PACE_MS: '0',
    ...BACKGROUND_JOBS_OFF,
    ...sandboxEnv(options.hosted),
    ...options.jobsEnv,
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, clock })] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: false,
  });
  await configureApp(app, config);
  await app.init();
  const control = options.hosted.sandbox.control;
  const dataSource = app.get(DataSource);
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    clock,
    dataDir,
    token: (company, overrides = {}) => sign(TEST_KEY, validClaims(company, clock.now(), overrides)),
    async newCompany(prefix = 'job') {
      const id = `${prefix}-${randomBytes(5).toString('hex')}`;
      await app.get(CompanyRepository).create({ id, name: `Test ${id}` });
      return id;
    },
    async connect(company, provider, index = 0) {
      const connections = app.get(ProviderConnectionRepository);
      if (provider === 'tripletex') {
        const info = control.for('tripletex').company(index);
        await connections.connect({
          companyId: company,
          grant: { provider: 'tripletex', secret: { kind: 'token', token: info.employeeToken } },
          externalCompanyId: String(info.companyId),
          externalCompanyName: info.name,
          connectedBy: 'admin@demo.no',
        });
      } else {
        const info = control.for('fiken').company(index);
        const issued = control.for('fiken').issueTokens(index);
        await connections.connect({
          companyId: company,
          grant: {
            provider: 'fiken',
            secret: {
              kind: 'oauth',
              tokens: {
                accessToken: issued.access_token,
                refreshToken: issued.refresh_token,
                expiresAt: Date.now() + issued.expires_in * 1000,
              },
            },
          },
          externalCompanyId: info.slug,
          externalCompanyName: info.name,
          connectedBy: 'admin@demo.no',
        });
      }
    },
    async approvedProposal(company, overrides = {}) {
      const ctx = { clock: app.get(Clock), ids: app.get(IdGenerator) };
      const bytes = receiptPdf({ note: `receipt ${randomBytes(6).toString('hex')}` });
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const withReceipt = overrides.receipt ?? true;
      return app.get(UnitOfWork).run(async (ports) => {
        const submitted = submitProposal(
          {
            companyId: company,
            origin: { actor: 'ola@demo.no', channel: 'slack', provider: null },
            details: withExpenseDefaults({
              kind: 'expense',
              merchant: 'Kontorrekvisita AS',
              amount: Math.round(Number(overrides.amount ?? '125.00') * 100),
              currency: 'NOK',
              amountNok: null,
              date: overrides.date ?? ctx.clock.now().toISOString().slice(0, 10),
              accountCode: overrides.accountCode ?? '6800',
              vatRate: '25',
              description: 'Printer paper',
              receipt: withReceipt
                ? { filename: 'receipt.pdf', contentType: 'application/pdf', sizeBytes: bytes.length, sha256 }
                : null,
              thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
              ...(overrides.supplierInvoice && {
                kind: 'supplier_invoice',
                paidWith: null,
                supplier: {
                  name: 'Kontorrekvisita AS',
                  organizationNumber: overrides.supplierInvoice.organizationNumber,
                  bankAccount: null,
                  kid: null,
                },
                invoiceNumber: overrides.supplierInvoice.invoiceNumber,
                dueDate: new Date(ctx.clock.now().getTime() + 14 * 86_400_000).toISOString().slice(0, 10),
              }),
            }),
            assessment: { score: 0, route: 'review_required', reasons: ['unknown merchant'] },
          },
          ctx,
        );
        await ports.events.append(submitted.events);
        await ports.proposals.insert(submitted.proposal);
        if (withReceipt) {
          await ports.receipts.save({
            proposalId: submitted.proposal.id,
            companyId: company,
            filename: 'receipt.pdf',
            contentType: 'application/pdf',
            sha256,
            bytes,
          });
        }
        const approved = transitionProposal(
          submitted.proposal,
          { type: 'Approve', origin: { actor: 'kari@demo.no', channel: 'web', provider: null } },
          ctx,
        );
        await ports.events.append(approved.events);
        await ports.proposals.update(approved.proposal, submitted.proposal.version);
        return approved.proposal;
      });
    },
    query: (sql, parameters = []) => dataSource.query(sql, parameters),
    async close() {
      await app.close();
      if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A token's claims for a manager (monitor) or an accountant (review). */
export const MANAGER: Claims = {
  sub: 'mona@demo.no',
  role: 'manager',
  permissions: ['solve', 'query', 'facts', 'monitor'],
};
export const ACCOUNTANT: Claims = {
  sub: 'kari@demo.no',
  role: 'accountant',
  permissions: ['solve', 'query', 'facts', 'monitor', 'rules'],
  channel: 'web',
};
export const ADMIN: Claims = {
  sub: 'anne@demo.no',
  role: 'admin',
  permissions: ['solve', 'query', 'facts', 'monitor', 'rules', 'config'],
};

/** The sandboxes' company card: Tripletex's account 1930, Fiken's credit-card bank account. */
export const SANDBOX_COMPANY_CARD = { tripletex: '1930', fiken: '1920:10002' } as const;

/**
 * Readies `company` for bookings as an admin would: connected to sandbox company `index` of
 * `provider`, its chart fetched (the rules a submission checks) and its payment accounts set (bank
 * 1920, the sandbox's company card, employees' outlays on 2910, unless `paymentAccounts` says
 * otherwise). Returns the provider's employees from the fetched context (none on Fiken, whose API
 * has no employees), for the employee mapping.
 */
export async function readyForBookings(
  t: JobsApp,
  company: string,
  provider: 'tripletex' | 'fiken',
  paymentAccounts: Record<string, string> = {},
  index = 0,
): Promise<Array<{ id: string }>> {
  await t.connect(company, provider, index);
  const admin = `Bearer ${t.token(company, ADMIN)}`;
  const context = await t.http.post('/v1/config/context/refresh').set('Authorization', admin);
  if (context.status !== 200) throw new Error(`context refresh: ${context.status} ${JSON.stringify(context.body)}`);
  const settings = await t.http
    .put('/v1/config/company')
    .set('Authorization', admin)
    .send({
      paymentAccounts: {
        bank: '1920',
        company_card: SANDBOX_COMPANY_CARD[provider],
        employee: '2910',
        ...paymentAccounts,
      },
    });
  if (settings.status !== 200) throw new Error(`payment accounts: ${settings.status} ${JSON.stringify(settings.body)}`);
  return (context.body as { employees?: Array<{ id: string }> }).employees ?? [];
}
