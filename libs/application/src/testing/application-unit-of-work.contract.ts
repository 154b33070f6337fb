import { createHash } from 'node:crypto';
import { ConcurrencyConflict, type Proposal } from '@app/domain';
import { aProposal, companies, uniqueId, type ContractOptions } from '@app/testing';
import type { IdempotencyRecord } from '../idempotency/idempotency-store.port';
import type { ReceiptStore } from '../receipts/receipt-store.port';
import type { ApplicationTransactionalPorts, ApplicationUnitOfWork } from '../shared/application-unit-of-work.port';

export interface ApplicationUnitOfWorkUnderTest {
  readonly unitOfWork: ApplicationUnitOfWork;
  /** A reader outside any unit of work, to see what was committed. */
  readonly receipts: ReceiptStore;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const DAY = 24 * 3600_000;

/**
 * The contract of the application's unit of work and of the stores it hands out (ReceiptStore,
 * IdempotencyStore), run against the in-memory and the TypeORM adapters.
 */
export function describeApplicationUnitOfWorkContract(
  name: string,
  factory: () => ApplicationUnitOfWorkUnderTest | Promise<ApplicationUnitOfWorkUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`ApplicationUnitOfWork contract: ${name}`, () => {
    let subject: ApplicationUnitOfWorkUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    function aStoredProposal(): Proposal {
      const id = uniqueId();
      return { ...aProposal('PROPOSED', { companyId: company }), id, correlationId: id };
    }

    function aReceiptOf(proposal: Proposal) {
      const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x10]);
      return {
        proposalId: proposal.id,
        companyId: proposal.companyId,
        filename: 'r.pdf',
        contentType: 'application/pdf',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes,
      };
    }

    function aKey(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
      return {
        scope: { companyId: company, actor: 'ola@example.no', key: `key-${uniqueId()}` },
        requestHash: 'a'.repeat(64),
        createdAt: new Date(T0),
        expiresAt: new Date(T0 + DAY),
        ...overrides,
      };
    }

    const use =
      (record: IdempotencyRecord, body: unknown = { id: 'p-1' }) =>
      (ports: ApplicationTransactionalPorts) =>
        ports.idempotency.claim(record).then(async (claim) => {
          if (claim.outcome === 'claimed') await ports.idempotency.complete(record, { status: 201, body });
          return claim;
        });

    describe('receipts', () => {
      it('commit with their proposal and read back byte for byte, in their company only', async () => {
        const proposal = aStoredProposal();
        const receipt = aReceiptOf(proposal);

        await subject.unitOfWork.run(async (ports) => {
          await ports.proposals.insert(proposal);
          await ports.receipts.save(receipt);
        });

        expect(await subject.receipts.find(company, proposal.id)).toEqual(receipt);
        expect(await subject.receipts.find(otherCompany, proposal.id)).toBeNull();
      });

      it('are not stored when the unit fails', async () => {
        const proposal = aStoredProposal();

        await expect(
          subject.unitOfWork.run(async (ports) => {
            await ports.proposals.insert(proposal);
            await ports.receipts.save(aReceiptOf(proposal));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');

        expect(await subject.receipts.find(company, proposal.id)).toBeNull();
      });

      it('refuse a second receipt for one proposal with ConcurrencyConflict', async () => {
        const proposal = aStoredProposal();
        await subject.unitOfWork.run(async (ports) => {
          await ports.proposals.insert(proposal);
          await ports.receipts.save(aReceiptOf(proposal));
        });

        await expect(
          subject.unitOfWork.run((ports) => ports.receipts.save(aReceiptOf(proposal))),
        ).rejects.toBeInstanceOf(ConcurrencyConflict);
      });
    });

    describe('idempotency keys', () => {
      it('are claimed once; the same request then replays the recorded response exactly', async () => {
        const record = aKey();
        const body = { id: 'p-1', nested: { z: 1, a: [2, 1] }, amount: '119.00' };

        expect(await subject.unitOfWork.run(use(record, body))).toEqual({ outcome: 'claimed' });
        const replay = await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + 1000) }));

        expect(replay).toEqual({ outcome: 'replay', response: { status: 201, body } });
        expect(JSON.stringify(replay.outcome === 'replay' && replay.response.body)).toBe(JSON.stringify(body));
      });

      it('conflict with a different request under the same key', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        expect(await subject.unitOfWork.run(use({ ...record, requestHash: 'b'.repeat(64) }))).toEqual({
          outcome: 'conflict',
        });
      });

      it('are scoped to company and actor', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        expect(
          await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, actor: 'kari@example.no' } })),
        ).toEqual({
          outcome: 'claimed',
        });
        expect(
          await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, companyId: otherCompany } })),
        ).toEqual({
          outcome: 'claimed',
        });
      });

      it('count as unused once expired', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));

        const later = {
          ...record,
          requestHash: 'b'.repeat(64),
          createdAt: new Date(T0 + DAY),
          expiresAt: new Date(T0 + 2 * DAY),
        };
        expect(await subject.unitOfWork.run(use(later))).toEqual({ outcome: 'claimed' });
        expect(await subject.unitOfWork.run(use({ ...later, createdAt: new Date(T0 + DAY + 1) }))).toMatchObject({
          outcome: 'replay',
        });
      });

      it('are purged once expired, not before', async () => {
        const record = aKey();
        await subject.unitOfWork.run(use(record));
        const purge = (at: number) =>
          subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(at), 10_000));

        await purge(T0 + DAY - 1);
        expect(await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + DAY - 1) }))).toMatchObject({
          outcome: 'replay',
        });
        expect(await purge(T0 + DAY)).toBeGreaterThanOrEqual(1);
        expect(await subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(T0 + DAY), 0))).toBe(0);
      });

      it('stay unused when the unit that claimed them fails', async () => {
        const record = aKey();
        await expect(
          subject.unitOfWork.run(async (ports) => {
            await use(record)(ports);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');

        expect(await subject.unitOfWork.run(use(record))).toEqual({ outcome: 'claimed' });
      });

      it('let one of two concurrent units with one key run; the other gets its response', async () => {
        const record = aKey();
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });

        const first = subject.unitOfWork.run(async (ports) => {
          const claim = await use(record, { winner: 'first' })(ports);
          await held;
          return claim;
        });
        const second = subject.unitOfWork.run(use(record, { winner: 'second' }));
        setTimeout(release, 50);

        expect(await first).toEqual({ outcome: 'claimed' });
        expect(await second).toEqual({ outcome: 'replay', response: { status: 201, body: { winner: 'first' } } });
      });
    });
  });
}
