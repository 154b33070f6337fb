import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { CompanyRepository } from '@app/domain';
import type { SandboxControl } from '@app/sandbox';
import { AppModule } from '../../apps/accounting-api/src/app.module';
import { configureApp } from '../../apps/accounting-api/src/bootstrap';
import { loadConfig, type AppConfig } from '../../apps/accounting-api/src/config/app-config';
import { BACKGROUND_JOBS_OFF } from './test-app';
import { SandboxRuntime } from '../../apps/accounting-api/src/sandbox/sandbox-runtime';
import { ManualClock } from './manual-clock';
import { makeKey, sign, validClaims, type Claims, type TestKey, writeJwks } from './gateway-keys';

export interface OnboardingTestApp {
  app: NestExpressApplication;
  http: TestAgent;
  config: AppConfig;
  clock: ManualClock;
  key: TestKey;
  /** The in-process sandbox the service runs in sandbox mode. */
  sandbox: SandboxControl;
  /** Every log line the service wrote (at level trace). */
  logs: string[];
  /** Every response body the service sent, with its headers. */
  responses: string[];
  newCompany(prefix?: string): Promise<string>;
  /** A valid token for `company`, claims overridden as given. */
  tokenFor(company: string, overrides?: Claims): string;
  close(): Promise<void>;
}

/**
 * The whole service in sandbox mode (its own in-process Tripletex and Fiken sandboxes), with a
 * manual clock, logging everything into `logs` and recording every response body into
 * `responses`, so that a test can look for secrets in what the service let out.
 */
export async function startOnboardingApp(env: Record<string, string> = {}): Promise<OnboardingTestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-onb-'));
  const jwksFile = path.join(dataDir, 'gateway-jwks.json');
  const key = makeKey('gateway-key-1');
  writeJwks(jwksFile, [key]);
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    GATEWAY_JWKS: jwksFile,
    LOG_LEVEL: 'trace',
    SEED_DEMO_COMPANY: 'false',
    MIGRATE_ON_BOOT: 'false',
    DB_POOL_SIZE: '6',
    PROVIDER_SANDBOX: 'on',
    ...BACKGROUND_JOBS_OFF,
    ...env,
  });
  const logs: string[] = [];
  const responses: string[] = [];
  const clock = new ManualClock(new Date());
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, clock, logDestination: { write: (line: string) => void logs.push(line) } })],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: false,
  });
  app.use(recordResponses(responses));
  await configureApp(app, config);
  await app.init();
  const companies = app.get(CompanyRepository);
  const sandbox = app.get(SandboxRuntime).control;
  if (!sandbox) throw new Error('the service did not start its sandbox');
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    clock,
    key,
    sandbox,
    logs,
    responses,
    async newCompany(prefix = 'onb') {
      const id = `${prefix}-${randomBytes(5).toString('hex')}`;
      await companies.create({ id, name: `Test ${id}` });
      return id;
    },
    tokenFor: (company, overrides = {}) => sign(key, validClaims(company, clock.now(), overrides)),
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function recordResponses(into: string[]) {
  return (_request: Request, response: Response, next: NextFunction): void => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown): void => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as Response['write'];
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk);
      into.push(`${JSON.stringify(response.getHeaders())}\n${Buffer.concat(chunks).toString('utf8')}`);
      return end(chunk, ...rest);
    }) as Response['end'];
    next();
  };
}
