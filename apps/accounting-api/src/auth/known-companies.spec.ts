import type { CompanyRepository } from '@app/domain';
import type { AppConfig } from '../config/app-config';
import { KnownCompanies } from './known-companies';

/** A company repository that answers `exists` only when the test lets it, and counts the asks. */
function slowCompanies(existing: Set<string>) {
  const waiting: (() => void)[] = [];
  let asked = 0;
  const repository = {
    exists: async (id: string) => {
      asked++;
      // The answer as of when the statement ran; it arrives when the test lets it.
      const exists = existing.has(id);
      await new Promise<void>((resolve) => waiting.push(resolve));
      return exists;
    },
  } as unknown as CompanyRepository;
  return {
    repository,
    asked: () => asked,
    answer: async () => {
      while (waiting.length > 0) waiting.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('KnownCompanies', () => {
  const config = { companyCacheTtlMs: 5_000 } as AppConfig;

  it('sends one statement for many requests that miss together, then answers from memory', async () => {
    const companies = slowCompanies(new Set(['acme']));
    const known = new KnownCompanies(companies.repository, config);

    const answers = Promise.all(Array.from({ length: 50 }, () => known.exists('acme')));
    await companies.answer();
    expect(await answers).toEqual(Array(50).fill(true));
    expect(companies.asked()).toBe(1);

    expect(await known.exists('acme')).toBe(true);
    expect(companies.asked()).toBe(1);
  });

  it('lets each request that joined a "no" ask again: a company created meanwhile is accepted at once', async () => {
    const existing = new Set<string>();
    const companies = slowCompanies(existing);
    const known = new KnownCompanies(companies.repository, config);

    const first = known.exists('new-co');
    existing.add('new-co');
    const joined = known.exists('new-co');
    await companies.answer();
    await companies.answer();

    expect(await first).toBe(false);
    expect(await joined).toBe(true);
    expect(companies.asked()).toBe(2);
  });
});
