import { TransportError } from './transport-error';
import { ResiliencePolicy, resilienceOptions } from './resilience';

const OPTIONS = resilienceOptions({
  retries: 0,
  timeoutMs: 1_000,
  breakerThreshold: 3,
  breakerHalfOpenAfterMs: 60_000,
  providerBreakerCompanies: 3,
});

const failing = () =>
  Promise.reject(
    new TransportError('fiken', 'unavailable', 'Fiken answered 503', { status: 503, outcomeUnknown: true }),
  );
const ok = () => Promise.resolve('ok');

async function reasonOf(policy: ResiliencePolicy, company: string, call: () => Promise<string>): Promise<string> {
  try {
    return await policy.execute('idempotent', call, undefined, undefined, company);
  } catch (error) {
    return (error as TransportError).reason;
  }
}

describe('ResiliencePolicy circuit breakers', () => {
  it("opens one company's circuit after its failures in a row, and leaves every other company alone", async () => {
    const policy = new ResiliencePolicy('fiken', OPTIONS);
    for (let i = 0; i < 3; i++) expect(await reasonOf(policy, 'slow-co', failing)).toBe('unavailable');
    let called = false;
    const spy = () => {
      called = true;
      return ok();
    };
    expect(await reasonOf(policy, 'slow-co', spy)).toBe('circuit_open');
    expect(called).toBe(false);
    expect(await reasonOf(policy, 'other-co', ok)).toBe('ok');
  });

  it('opens the provider-wide circuit only when failures in a row come from several companies', async () => {
    const policy = new ResiliencePolicy('fiken', OPTIONS);
    // Two companies failing in turn: not provider-wide, a third company still gets through.
    for (let i = 0; i < 2; i++) {
      await reasonOf(policy, 'a', failing);
      await reasonOf(policy, 'b', failing);
    }
    expect(await reasonOf(policy, 'c', ok)).toBe('ok');
    // Three companies failing in a row: the provider is down; a fourth fails fast.
    await reasonOf(policy, 'd', failing);
    await reasonOf(policy, 'e', failing);
    await reasonOf(policy, 'f', failing);
    let called = false;
    const error = await policy
      .execute(
        'idempotent',
        () => {
          called = true;
          return ok();
        },
        undefined,
        undefined,
        'g',
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'circuit_open', message: 'fiken is unavailable (circuit open)' });
    expect(called).toBe(false);
  });

  it('does not count a success-free run of one company against the provider', async () => {
    const policy = new ResiliencePolicy('fiken', resilienceOptions({ ...OPTIONS, breakerThreshold: 5 }));
    for (let i = 0; i < 10; i++) await reasonOf(policy, 'slow-co', failing);
    expect(await reasonOf(policy, 'other-co', ok)).toBe('ok');
  });
});
