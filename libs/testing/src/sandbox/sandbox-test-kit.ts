import type { Express } from 'express';
import request from 'supertest';
import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  type Sandbox,
  type SandboxOptions,
} from '@app/sandbox';
import { receiptPdf } from '../mothers/receipt-pdf.mother';

/** A clock tests move by hand. */
export class SandboxClock {
  private current: number;

  constructor(start: string) {
    this.current = Date.parse(start);
  }

  readonly now = (): Date => new Date(this.current);

  advance(ms: number): void {
    this.current += ms;
  }
}

const TODAY = '2026-03-16';

/** A small deterministic sandbox on a manual clock set to 10:00 UTC on {@link TODAY}. */
export function testSandbox(options: SandboxOptions = {}): Sandbox & { clock: SandboxClock } {
  const clock = new SandboxClock(`${TODAY}T10:00:00Z`);
  const sandbox = createSandbox({ seed: 7, ledgerEndDate: TODAY, now: clock.now, ...options });
  return { ...sandbox, clock };
}

export function basicSession(token: string, company = '0'): string {
  return `Basic ${Buffer.from(`${company}:${token}`).toString('base64')}`;
}

export async function tripletexSession(
  app: Express,
  employeeToken = SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  expirationDate = '2026-03-18',
): Promise<string> {
  const response = await request(app)
    .put('/tripletex/v2/token/session/:create')
    .query({ consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN, employeeToken, expirationDate });
  if (response.status !== 200)
    throw new Error(`session create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return basicSession((response.body as { value: { token: string } }).value.token);
}

export function fikenClientAuth(id = SANDBOX_FIKEN_CLIENT_ID, secret = SANDBOX_FIKEN_CLIENT_SECRET): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export const SANDBOX_REDIRECT_URI = 'http://localhost:3000/v1/oauth/fiken/callback';

/** Runs the authorize → approve → token exchange of Fiken's OAuth flow. */
export async function fikenAuthorize(
  app: Express,
  company = 'demo-fiken-as',
): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
  const approve = await request(app).post('/fiken/oauth/authorize').type('form').send({
    client_id: SANDBOX_FIKEN_CLIENT_ID,
    redirect_uri: SANDBOX_REDIRECT_URI,
    state: 's1',
    company,
    decision: 'approve',
  });
  const code = new URL(approve.headers.location as string).searchParams.get('code');
  const token = await request(app)
    .post('/fiken/oauth/token')
    .set('Authorization', fikenClientAuth())
    .type('form')
    .send({ grant_type: 'authorization_code', code, redirect_uri: SANDBOX_REDIRECT_URI, state: 's1' });
  if (token.status !== 200) throw new Error(`token exchange failed: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body as { access_token: string; refresh_token: string; expires_in: number };
}

export const SANDBOX_PDF = receiptPdf();
