import { DataSource } from 'typeorm';
import { receiptPdf } from '@app/testing';
import type { Response } from 'supertest';
import type { TestApp } from './test-app';

/** The people of the e2e flows: an employee submitting through the agent, reviewers, a manager, an admin. */
export const PEOPLE = {
  employee: { sub: 'ola@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] },
  colleague: { sub: 'nora@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] },
  accountant: {
    sub: 'kari@demo.no',
    role: 'accountant',
    permissions: ['solve', 'query', 'facts', 'monitor', 'rules'],
    channel: 'web',
  },
  secondAccountant: {
    sub: 'per@demo.no',
    role: 'accountant',
    permissions: ['solve', 'query', 'facts', 'monitor', 'rules'],
    channel: 'web',
  },
  manager: { sub: 'mona@demo.no', role: 'manager', permissions: ['solve', 'query', 'facts', 'monitor'] },
  admin: {
    sub: 'anne@demo.no',
    role: 'admin',
    permissions: ['solve', 'query', 'facts', 'monitor', 'rules', 'config'],
    channel: 'web',
  },
} as const;

export type Person = keyof typeof PEOPLE;

/** A minimal one-page PDF, as the receipt check parses it. */
export const PDF = receiptPdf();

/** A valid POST /v1/proposals body (docs/api.md §4.1). */
export function proposalBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'expense',
    merchant: 'Spotify AB',
    amount: '119.00',
    currency: 'NOK',
    date: '2026-11-20',
    accountCode: '6540',
    vatRate: '25',
    description: 'Spotify Premium',
    receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: PDF.toString('base64') },
    thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    resubmissionOf: null,
    ...overrides,
  };
}

/**
 * The `n`th repeat of proposalBody's purchase (n ≥ 1): `n` weeks earlier, with a receipt of its
 * own, so that it is another purchase from the same merchant and not a possible duplicate.
 */
export function repeatBody(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const date = new Date(Date.parse('2026-11-20T00:00:00Z') - n * 7 * 86_400_000).toISOString().slice(0, 10);
  const receipt = receiptPdf({ note: `purchase ${n}` });
  return proposalBody({
    date,
    receipt: { filename: `r${n}.pdf`, contentType: 'application/pdf', dataBase64: receipt.toString('base64') },
    ...overrides,
  });
}

export interface OutboxRow {
  target: string;
  kind: string;
  payload: Record<string, unknown>;
}

/** HTTP calls as the people above, in the test app's company unless told otherwise. */
export function api(t: TestApp, company = t.company) {
  const bearer = (who: Person) => `Bearer ${t.token({ ...PEOPLE[who], company_id: company })}`;
  return {
    get: (path: string, who: Person) => t.http.get(path).set('Authorization', bearer(who)),
    post: (path: string, who: Person, body: object = {}) =>
      t.http.post(path).set('Authorization', bearer(who)).send(body),
    put: (path: string, who: Person, body: object) => t.http.put(path).set('Authorization', bearer(who)).send(body),
    delete: (path: string, who: Person) => t.http.delete(path).set('Authorization', bearer(who)),
    submit: (body: object = proposalBody(), who: Person = 'employee', idempotencyKey?: string) => {
      const request = t.http.post('/v1/proposals').set('Authorization', bearer(who));
      return (idempotencyKey === undefined ? request : request.set('Idempotency-Key', idempotencyKey)).send(body);
    },
    /** The notifications waiting in the outbox for this company, oldest first. */
    outbox: async (): Promise<OutboxRow[]> =>
      t.app
        .get(DataSource)
        .query('SELECT target, kind, payload FROM notification_outbox WHERE company_id = $1 ORDER BY created_at, id', [
          company,
        ]),
  };
}

/** Asserts a problem+json response with the given status and code. */
export function expectProblem(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
}
