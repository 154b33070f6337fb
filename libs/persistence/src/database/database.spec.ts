import { openTestDatabase } from '../testing/test-database';

const openSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;

describe('Database.close', () => {
  it('resolves once the sockets of its connections are closed, whenever the server closes its side', async () => {
    const database = await openTestDatabase(3);
    // Three connections at once, so that the pool holds three sockets.
    await Promise.all([1, 2, 3].map(() => database.dataSource.query('SELECT pg_sleep(0.05)')));
    const open = openSockets();

    await database.close();

    // Other sockets of the process may close meanwhile, none opens: at least its three are gone.
    expect(openSockets()).toBeLessThanOrEqual(open - 3);
  });
});
