import express from 'express';
import request from 'supertest';
import { applyFaults, recordCalls, setCompany } from './faults/fault-middleware';
import { faultMatchesScope } from './faults/fault-registry';
import { createSandbox } from './sandbox';
import type { SandboxProvider, SandboxProviderControl } from './sandbox-provider';
import { SANDBOX_PROVIDERS } from './sandbox-providers';

/** A test-only third provider's sandbox, declared as a real one is: state, router, environment, control. */
class KasseState {
  readonly books = new Map<number, string[]>();
  sessions = 0;
  constructor(readonly companyCount: number) {}
}

interface KasseControl extends SandboxProviderControl<string, { index: number; slug: string }> {
  openSession(): void;
}

const kasseSandbox: SandboxProvider<'kasse', KasseState, KasseControl> = {
  kind: 'kasse',
  createState: () => new KasseState(2),
  router: (state, faults, log) => {
    const router = express.Router();
    router.use(express.json());
    router.use('/api/:company', (req, res, next) => {
      setCompany(res, req.params.company, [req.params.company]);
      next();
    });
    router.use(recordCalls('kasse', log, () => new Date()));
    router.use(
      applyFaults('kasse', faults, 0, {
        serverError: (res, status) => void res.status(status).json({ error: 'injected' }),
        rateLimited: (res) => void res.status(429).end(),
      }),
    );
    router.post('/api/:company/books', (req, res) => {
      const index = Number(req.params.company.replace('kasse-', ''));
      state.books.set(index, [...(state.books.get(index) ?? []), String(req.body.text)]);
      res.status(201).json({ ok: true });
    });
    return router;
  },
  environment: (url) => ({ KASSE_API_URL: `${url}/kasse/api` }),
  control: (state) => ({
    companies: () => Array.from({ length: state.companyCount }, (_, index) => ({ index, slug: `kasse-${index}` })),
    company: (index) => ({ index, slug: `kasse-${index}` }),
    bookings: (company) => [...(state.books.get(Number(String(company).replace('kasse-', ''))) ?? [])],
    expireTokens: (scope) => {
      const expired = faultMatchesScope(scope, 'kasse', []) ? state.sessions : 0;
      state.sessions -= expired;
      return expired;
    },
    openSession: () => void state.sessions++,
    reset: () => {
      state.books.clear();
      state.sessions = 0;
    },
  }),
};

describe('a third sandbox provider, registered by one line', () => {
  const sandbox = () => createSandbox({ providers: [...SANDBOX_PROVIDERS, kasseSandbox] });

  it('is served under its kind and driven through the control like the others', async () => {
    const { app, control } = sandbox();
    expect(control.kinds()).toEqual(['tripletex', 'fiken', 'kasse']);

    expect((await request(app).post('/kasse/api/kasse-1/books').send({ text: 'coffee' })).status).toBe(201);
    const kasse = control.for('kasse') as KasseControl;
    expect(kasse.bookings(1)).toEqual(['coffee']);
    expect((await request(app).get('/_sandbox/bookings/kasse/kasse-1')).body).toEqual(['coffee']);
    expect((await request(app).get('/_sandbox/kasse/companies')).body).toEqual([
      { index: 0, slug: 'kasse-0' },
      { index: 1, slug: 'kasse-1' },
    ]);
    // It issues no tokens without a consent step: the route says so.
    expect((await request(app).post('/_sandbox/kasse/tokens').send({ company: 0 })).status).toBe(404);
    expect(control.calls({ provider: 'kasse' })).toMatchObject([{ method: 'POST', company: 'kasse-1', status: 201 }]);
  });

  it('takes faults and token expiry scoped to its kind, and is reset with the others', async () => {
    const { app, control } = sandbox();
    const added = await request(app).post('/_sandbox/faults').send({ provider: 'kasse', errorNext: 1 });
    expect(added.status).toBe(201);
    expect((await request(app).post('/kasse/api/kasse-0/books').send({ text: 'x' })).status).toBe(500);
    expect((await request(app).post('/kasse/api/kasse-0/books').send({ text: 'y' })).status).toBe(201);

    const kasse = control.for('kasse') as KasseControl;
    kasse.openSession();
    kasse.openSession();
    expect(control.expireTokens('fiken')).toBe(0);
    expect(control.expireTokens('kasse')).toBe(2);

    control.reset();
    expect(kasse.bookings(0)).toEqual([]);
    expect(control.calls()).toEqual([]);
  });
});
