import type { CompanyRepository, EventStore, ProviderConnectionRepository } from '@app/domain';
import { type ContractOptions, uniqueCompanyId, uniqueId } from './contract-support';
import { aChainEvent } from './event-store.contract';

export interface CompanyRepositoryUnderTest {
  readonly companies: CompanyRepository;
  /** Stores of the same database: a deletion takes the company's connection and keeps its audit events. */
  readonly connections: ProviderConnectionRepository;
  readonly events: EventStore;
}

/**
 * The CompanyRepository contract: a company is created once under its id, found by it, and listed
 * in id order; a deletion takes its connection, and its record unless audit events reference it,
 * and is logged in a log that outlives the company. Works in a shared database: every test uses ids
 * of its own and looks only at them.
 */
export function describeCompanyRepositoryContract(
  name: string,
  factory: () => CompanyRepositoryUnderTest | Promise<CompanyRepositoryUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`CompanyRepository contract: ${name}`, () => {
    let subject: CompanyRepositoryUnderTest;
    let companies: CompanyRepository;

    beforeEach(async () => {
      subject = await factory();
      companies = subject.companies;
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('creates a company once: a second create under its id changes nothing', async () => {
      const id = uniqueCompanyId();

      expect(await companies.exists(id)).toBe(false);
      expect(await companies.create({ id, name: 'Acme AS' })).toBe(true);
      expect(await companies.create({ id, name: 'Another name' })).toBe(false);

      expect(await companies.exists(id)).toBe(true);
      expect(await companies.findById(id)).toEqual({ id, name: 'Acme AS', createdAt: expect.any(Date) });
    });

    it('finds no unknown company', async () => {
      expect(await companies.findById(uniqueCompanyId())).toBeNull();
      expect(await companies.exists(uniqueCompanyId())).toBe(false);
    });

    it('lists the companies in id order', async () => {
      const ids = [uniqueCompanyId('c'), uniqueCompanyId('a'), uniqueCompanyId('b')];
      for (const id of ids) await companies.create({ id, name: `Company ${id}` });

      const listed = (await companies.list()).filter((company) => ids.includes(company.id));

      expect(listed.map((company) => company.id)).toEqual([...ids].sort());
      expect(listed[0]).toEqual({ id: listed[0].id, name: `Company ${listed[0].id}`, createdAt: expect.any(Date) });
    });

    async function aConnectedCompany(): Promise<string> {
      const id = uniqueCompanyId('gone');
      await companies.create({ id, name: 'Gone AS' });
      await subject.connections.connect({
        companyId: id,
        grant: { provider: 'tripletex', secret: { kind: 'token', token: 'employee-token' } },
        externalCompanyId: null,
        externalCompanyName: null,
        connectedBy: 'admin@example.no',
      });
      return id;
    }

    const deletionOf = (companyId: string, deletedAt = new Date('2026-11-20T12:00:00.000Z')) => ({
      id: uniqueId(),
      companyId,
      companyName: 'Gone AS',
      actor: 'ops@example.no',
      deletedAt,
    });

    it('deletes a company without audit events with its connection, and logs who deleted it', async () => {
      const id = await aConnectedCompany();
      const deletion = deletionOf(id);

      expect(await companies.delete(deletion)).toEqual({ ...deletion, auditEventsKept: 0 });

      expect(await companies.exists(id)).toBe(false);
      expect(await subject.connections.find(id)).toBeNull();
      expect((await companies.deletions()).filter((d) => d.companyId === id)).toEqual([
        { ...deletion, auditEventsKept: 0 },
      ]);
    });

    it('keeps the record of a company with audit events, and the events, but takes its connection and refuses it', async () => {
      const id = await aConnectedCompany();
      const chain = uniqueId();
      await subject.events.append([aChainEvent(id, chain, 1), aChainEvent(id, chain, 2)]);

      expect(await companies.delete(deletionOf(id))).toMatchObject({ companyId: id, auditEventsKept: 2 });

      expect(await companies.exists(id)).toBe(false);
      expect(await companies.findById(id)).toMatchObject({ id, name: 'Gone AS' });
      expect(await subject.connections.find(id)).toBeNull();
      expect(await subject.events.readChain(id, chain)).toHaveLength(2);
    });

    it('keeps the deletion log, oldest first, after the company is gone and its id is used again', async () => {
      const id = await aConnectedCompany();
      const first = deletionOf(id, new Date('2026-11-20T12:00:00.000Z'));
      const second = deletionOf(id, new Date('2026-11-21T12:00:00.000Z'));
      await companies.delete(first);
      expect(await companies.create({ id, name: 'Gone AS again' })).toBe(true);
      await companies.delete(second);

      expect((await companies.deletions()).filter((d) => d.companyId === id).map((d) => d.id)).toEqual([
        first.id,
        second.id,
      ]);
    });
  });
}
