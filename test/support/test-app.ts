import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { CompanyRepository } from '@app/domain';
import { AppModule } from '../../apps/accounting-api/src/app.module';
import { configureApp } from '../../apps/accounting-api/src/bootstrap';
import { loadConfig, type AppConfig } from '../../apps/accounting-api/src/config/app-config';
import { productionSecretsEnv } from './production-env';
import { ManualClock } from './manual-clock';
import { OpenApiResponseChecker, recordMismatches, takeMismatches, type OpenApiDocument } from './openapi-responses';
import { makeKey, sign, TEST_AUDIENCE, validClaims, writeJwks, type Claims, type TestKey } from './gateway-keys';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  config: AppConfig;
  clock: ManualClock;
  key: TestKey;
  jwksFile: string;
  dataDir: string;
  /** A company created for this test app (unique per app). */
  company: string;
  /** A valid token for `company`, signed with `key`, with claims overridden as given. */
  token(overrides?: Claims): string;
  newCompany(prefix?: string): Promise<string>;
  close(): Promise<void>;
}

/*
 * Every response a test gets through `http` is checked against the service's /openapi.json; a
 * mismatch fails the test (or the suite's setup) that received it.
 */
afterEach(() => failOnMismatches('this test'));
afterAll(() => failOnMismatches('the suite setup or teardown'));

function failOnMismatches(where: string): void {
  const mismatches = takeMismatches();
  if (mismatches.length > 0) {
    throw new Error(`responses in ${where} do not match /openapi.json:\n  ${mismatches.join('\n  ')}`);
  }
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** The supertest agent with each response checked against the document. */
function checkedAgent(agent: TestAgent, checker: OpenApiResponseChecker): TestAgent {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !HTTP_METHODS.has(property) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = (value as (...args: unknown[]) => request.Test).call(target, url, ...rest);
        test.on('response', (response: request.Response) => {
          recordMismatches(
            checker.check({
              method: property,
              url,
              status: response.status,
              headers: response.headers as Record<string, string>,
              body: response.body,
              text: response.text,
            }),
          );
        });
        return test;
      };
    },
  });
}

/** Tests drive the executor, the daily check and the outbox themselves unless they turn them on. */
export const BACKGROUND_JOBS_OFF = {
  EXECUTOR_ENABLED: 'false',
  DAILY_CHECK_ENABLED: 'false',
  OUTBOX_DISPATCH_ENABLED: 'false',
  // Seal explicitly (EventSealer) where a test needs seals.
  EVENT_SEAL_INTERVAL_MS: '0',
};

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Extra controllers (probes exercising the guard and the error filter). */
  controllers?: Type[];
  /** Another instance of the service beside this one: the same gateway key and company. */
  beside?: TestApp;
  /** Where the service's log lines go (with LOG_LEVEL set in `env`); default: nowhere. */
  logDestination?: DestinationStream;
}

/**
 * The whole service over HTTP, on the test database, trusting a JWKS the test controls and
 * reading time from a manual clock.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-test-'));
  const jwksFile = options.beside?.jwksFile ?? path.join(dataDir, 'gateway-jwks.json');
  const key = options.beside?.key ?? makeKey('gateway-key-1');
  if (!options.beside) writeJwks(jwksFile, [key]);
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    GATEWAY_JWKS: jwksFile,
    GATEWAY_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'silent',
    ...BACKGROUND_JOBS_OFF,
    SEED_DEMO_COMPANY: 'false',
    MIGRATE_ON_BOOT: 'false',
    DB_POOL_SIZE: '4',
    // Fiken's pace between request starts (250 ms in production) is test/fiken-request-slot's subject.
    FIKEN_REQUEST_PACE_MS: '0',
    ...(options.env?.NODE_ENV === 'production' ? { ...productionSecretsEnv(), PROVIDER_SANDBOX: 'true' } : {}),
    ...options.env,
  });
  const clock = new ManualClock(new Date());
  const moduleRef = await Test.createTestingModule({
    // Production mode here runs on the shared test database as its superuser: the role check is
    // test/database-roles.e2e-spec.ts's subject.
    imports: [AppModule.forRoot({ config, clock, checkDatabaseRole: false, logDestination: options.logDestination })],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: false,
  });
  await configureApp(app, config);
  await app.init();
  const companies = app.get(CompanyRepository);
  const newCompany = async (prefix = 'co') => {
    const id = `${prefix}-${randomBytes(5).toString('hex')}`;
    await companies.create({ id, name: `Test ${id}` });
    return id;
  };
  const company = options.beside?.company ?? (await newCompany());
  const server = app.getHttpServer();
  const document = (await request(server).get('/openapi.json')).body as OpenApiDocument;
  const probes = (options.controllers ?? []).map((c) => `/${String(Reflect.getMetadata('path', c))}`);
  return {
    app,
    http: checkedAgent(request(server), new OpenApiResponseChecker(document, probes)),
    config,
    clock,
    key,
    jwksFile,
    dataDir,
    company,
    token: (overrides = {}) => sign(key, validClaims(company, clock.now(), overrides)),
    newCompany,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
