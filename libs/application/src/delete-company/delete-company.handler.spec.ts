import { NotFound, TokenVault, ValidationFailed, type SealedSecret } from '@app/domain';
import { aChainEvent, createInMemoryAdapters } from '@app/testing';
import { DeleteCompanyHandler } from './delete-company.handler';

/** A vault that only remembers which company keys were destroyed, and in what order with the rest. */
class RecordingVault extends TokenVault {
  constructor(private readonly record: (what: string) => void) {
    super();
  }
  async ensureCompanyKey(): Promise<void> {
    throw new Error('not used');
  }
  async seal(): Promise<SealedSecret> {
    throw new Error('not used');
  }
  async open(): Promise<string> {
    throw new Error('not used');
  }
  async destroyCompanyKey(companyId: string): Promise<void> {
    this.record(`key of ${companyId} destroyed`);
  }
}

function world() {
  const adapters = createInMemoryAdapters('2026-11-20T12:00:00.000Z');
  const happened: string[] = [];
  const vault = new RecordingVault((what) => happened.push(what));
  const handler = new DeleteCompanyHandler(adapters.companies, vault, adapters.clock, adapters.ids);
  return { ...adapters, happened, handler };
}

async function aConnectedCompany(w: ReturnType<typeof world>, id = 'acme'): Promise<string> {
  await w.companies.create({ id, name: 'Acme AS' });
  await w.connections.connect({
    companyId: id,
    grant: { provider: 'tripletex', secret: { kind: 'token', token: 'employee-token' } },
    externalCompanyId: null,
    externalCompanyName: null,
    connectedBy: 'admin@acme.no',
  });
  return id;
}

describe('DeleteCompanyHandler', () => {
  it('destroys the key, removes the company and its connection, and logs who deleted what', async () => {
    const w = world();
    await aConnectedCompany(w);

    const deletion = await w.handler.execute({ companyId: 'acme', actor: ' ops@example.no ' });

    expect(deletion).toEqual({
      id: expect.any(String),
      companyId: 'acme',
      companyName: 'Acme AS',
      actor: 'ops@example.no',
      deletedAt: new Date('2026-11-20T12:00:00.000Z'),
      auditEventsKept: 0,
    });
    expect(w.happened).toEqual(['key of acme destroyed']);
    expect(await w.companies.exists('acme')).toBe(false);
    expect(await w.connections.find('acme')).toBeNull();
    expect(await w.companies.deletions()).toEqual([deletion]);
  });

  it('keeps the record of a company with audit events, and says how many', async () => {
    const w = world();
    await aConnectedCompany(w);
    await w.events.append([aChainEvent('acme', 'chain-1', 1)]);

    const deletion = await w.handler.execute({ companyId: 'acme', actor: 'ops@example.no' });

    expect(deletion.auditEventsKept).toBe(1);
    expect(await w.companies.exists('acme')).toBe(false);
    expect(await w.companies.findById('acme')).toMatchObject({ id: 'acme' });
    expect(await w.connections.find('acme')).toBeNull();
    expect(w.happened).toEqual(['key of acme destroyed']);
  });

  it('refuses an unknown company with not_found, destroying nothing', async () => {
    const w = world();

    await expect(w.handler.execute({ companyId: 'nobody', actor: 'ops@example.no' })).rejects.toBeInstanceOf(NotFound);
    expect(w.happened).toEqual([]);
    expect(await w.companies.deletions()).toEqual([]);
  });

  it.each([[''], ['   '], ['x'.repeat(201)]])('refuses a deletion without an operator (%j)', async (actor) => {
    const w = world();
    await aConnectedCompany(w);

    await expect(w.handler.execute({ companyId: 'acme', actor })).rejects.toBeInstanceOf(ValidationFailed);
    expect(w.happened).toEqual([]);
    expect(await w.companies.exists('acme')).toBe(true);
  });

  it('refuses an id that is not a company id', async () => {
    const w = world();

    await expect(w.handler.execute({ companyId: 'Not A Slug', actor: 'ops' })).rejects.toBeInstanceOf(ValidationFailed);
  });
});
