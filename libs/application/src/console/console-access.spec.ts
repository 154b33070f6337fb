import { CONSOLE_LINK_TTL_MS, CONSOLE_SESSION_TTL_MS, type Identity, type Role } from '@app/domain';
import { InMemoryConsoleSessionStore, ManualClock } from '@app/testing';
import { ConsoleAccess, consoleDigest } from './console-access';

function identity(role: Role = 'accountant'): Identity {
  return {
    actor: 'kari@firm.no',
    company: 'acme',
    channel: 'slack',
    role,
    permissions: ['solve', 'query', 'facts', 'monitor', 'rules'],
    tokenExpiresAt: new Date('2026-11-20T09:00:00Z'),
  };
}

describe('ConsoleAccess', () => {
  let clock: ManualClock;
  let store: InMemoryConsoleSessionStore;
  let access: ConsoleAccess;

  beforeEach(() => {
    clock = new ManualClock(new Date('2026-11-20T08:00:00Z'));
    store = new InMemoryConsoleSessionStore();
    access = new ConsoleAccess(store, clock);
  });

  it('opens a link once into a session acting as the token’s identity on the channel web', async () => {
    const link = await access.issueLink(identity());
    const opened = await access.openLink(link.secret);
    if (opened.kind !== 'session') throw new Error(`refused: ${opened.rejection}`);

    expect(opened.identity).toMatchObject({
      actor: 'kari@firm.no',
      company: 'acme',
      role: 'accountant',
      channel: 'web',
    });
    expect(opened.identity.permissions).toEqual(identity().permissions);
    expect(await access.identityOf(opened.secret)).toEqual(opened.identity);
    expect(await access.openLink(link.secret)).toEqual({ kind: 'refused', rejection: 'used' });
  });

  it('names whom a link would sign in without using it', async () => {
    const link = await access.issueLink(identity('admin'));
    const previewed = await access.previewLink(link.secret);
    expect(previewed).toMatchObject({
      kind: 'valid',
      identity: { actor: 'kari@firm.no', company: 'acme', role: 'admin' },
    });
    expect(await access.previewLink(link.secret)).toEqual(previewed);
    expect((await access.openLink(link.secret)).kind).toBe('session');
    expect(await access.previewLink(link.secret)).toEqual({ kind: 'refused', rejection: 'used' });
    expect(await access.previewLink('not-a-link')).toEqual({ kind: 'refused', rejection: 'unknown' });
  });

  it('stores digests, never the secrets', async () => {
    const link = await access.issueLink(identity());
    expect(await store.redeemLink(link.secret, clock.now())).toBe('unknown');
    expect(typeof (await store.redeemLink(consoleDigest(link.secret), clock.now()))).toBe('object');
  });

  it('refuses a link opened after its few minutes', async () => {
    const link = await access.issueLink(identity());
    clock.advance({ milliseconds: CONSOLE_LINK_TTL_MS });
    expect(await access.openLink(link.secret)).toEqual({ kind: 'refused', rejection: 'expired' });
  });

  it('refuses an employee a link with role_insufficient', async () => {
    await expect(access.issueLink(identity('employee'))).rejects.toMatchObject({ code: 'role_insufficient' });
  });

  it('ends a session at logout and when it expires', async () => {
    const first = await access.openLink((await access.issueLink(identity())).secret);
    const second = await access.openLink((await access.issueLink(identity())).secret);
    if (first.kind !== 'session' || second.kind !== 'session') throw new Error('refused');

    await access.logout(first.secret);
    expect(await access.identityOf(first.secret)).toBeNull();
    clock.advance({ milliseconds: CONSOLE_SESSION_TTL_MS });
    expect(await access.identityOf(second.secret)).toBeNull();
  });
});
