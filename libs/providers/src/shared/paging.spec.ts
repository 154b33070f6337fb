import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '@app/domain';
import { FixedClock, InMemoryProviderTokenStore } from '@app/testing';
import { FikenProvider } from '../fiken/fiken.provider';
import type { FikenConnection } from '../fiken/fiken-connection';
import { PageGuard } from './paging';

const FAST = { timeoutMs: 2_000, retries: 0, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 };

describe('PageGuard', () => {
  it('lets distinct pages through and stops a page that repeats the one before it', () => {
    const guard = new PageGuard('fiken', '/journalEntries');
    guard.check([{ id: 1 }, { id: 2 }], 0);
    guard.check([{ id: 3 }, { id: 4 }], 1);
    expect(() => guard.check([{ id: 3 }, { id: 4 }], 2)).toThrow(
      'page 3 of /journalEntries repeats the page before it: the provider does not honour paging',
    );
  });

  it('stops a non-empty page beyond the announced total, and a loop past the page bound', () => {
    expect(() => new PageGuard('tripletex', '/ledger/voucher').check([{ id: 9 }], 4, true)).toThrow(
      'page 5 of /ledger/voucher lies beyond the total the provider announced',
    );
    new PageGuard('tripletex', '/ledger/voucher').check([], 4, true); // an empty page ends the loop anyway
    const bounded = new PageGuard('fiken', '/purchases', 2);
    bounded.check([{ id: 1 }], 0);
    bounded.check([{ id: 2 }], 1);
    expect(() => bounded.check([{ id: 3 }], 2)).toThrow('/purchases has more than 2 pages: the read was stopped');
  });

  it('fails as a transient provider error (the provider may page again later), never silently', () => {
    const guard = new PageGuard('fiken', '/x');
    guard.check([1], 0);
    try {
      guard.check([1], 1);
      throw new Error('not stopped');
    } catch (error) {
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ transient: true, code: 'provider_unavailable' });
    }
  });
});

/** A Fiken API that ignores `page`: every request gets the same full page of journal entries. */
describe('Fiken paging against an API that ignores page', () => {
  let server: Server;
  let requests: string[];
  let conn: FikenConnection;
  const store = new InMemoryProviderTokenStore();

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.setHeader('Content-Type', 'application/json');
      const path = (req.url ?? '').split('?')[0];
      if (path.endsWith('/accounts')) {
        // 150 accounts in one answer, whatever the query says (Fiken's chart is not paged).
        res.end(JSON.stringify(Array.from({ length: 150 }, (_, i) => ({ code: String(3000 + i), name: `A ${i}` }))));
        return;
      }
      if (!path.endsWith('/journalEntries')) {
        // Bank accounts, contacts, purchases: none, in one short page.
        res.end('[]');
        return;
      }
      const entries = Array.from({ length: 100 }, (_, i) => ({
        journalEntryId: i + 1,
        date: '2026-03-01',
        description: `entry ${i}`,
        lines: [],
        attachments: [],
      }));
      res.end(JSON.stringify(entries));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    conn = {
      provider: 'fiken',
      companyId: 'acme',
      baseUrl: `http://127.0.0.1:${port}/api/v2`,
      tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
      companySlug: 'acme-as',
    };
    await store.save('acme', 'fiken', { accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 3_600_000 });
  });

  beforeEach(() => {
    requests = [];
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const provider = () =>
    new FikenProvider(
      { clientId: 'client', clientSecret: 'secret', resilience: FAST },
      store,
      new FixedClock(new Date('2026-03-16T10:00:00Z')),
    );

  it('stops reading journal entries with a clear error when the second page repeats the first', async () => {
    const pages: unknown[] = [];
    const read = async () => {
      for await (const page of provider().voucherPages(conn, '2026-01-01', '2026-03-16')) pages.push(page);
    };
    await expect(read()).rejects.toThrow('page 2 of /journalEntries repeats the page before it');
    expect(pages).toHaveLength(1);
    expect(requests.filter((url) => url.includes('/journalEntries'))).toHaveLength(2);
  });

  it('reads the chart of 150 accounts in one request, without paging', async () => {
    const context = await provider().fetchContext(conn);
    expect(context.accounts).toHaveLength(150);
    const chart = requests.filter((url) => url.split('?')[0].endsWith('/accounts'));
    expect(chart).toHaveLength(1);
    expect(chart[0]).not.toContain('page');
  });
});
