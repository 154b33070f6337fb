import { createHash } from 'node:crypto';
import type { ReceiptStore, UnitOfWork } from '@app/application';
import { ConcurrencyConflict, type Proposal } from '@app/domain';
import { aProposal } from '../mothers/proposal.mother';
import { companies, type ContractOptions, uniqueId } from './contract-support';

export interface ReceiptStoreUnderTest {
  /** Hands out the ReceiptStore that joins the unit (`ports.receipts`), and the proposals receipts belong to. */
  readonly unitOfWork: UnitOfWork;
  /** A reader outside any unit of work, to see what was committed. */
  readonly receipts: ReceiptStore;
}

/**
 * The ReceiptStore contract: a receipt is stored with its proposal in one unit of work, read back
 * byte for byte in its company only, and stored once.
 */
export function describeReceiptStoreContract(
  name: string,
  factory: () => ReceiptStoreUnderTest | Promise<ReceiptStoreUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`ReceiptStore contract: ${name}`, () => {
    let subject: ReceiptStoreUnderTest;
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

      await expect(subject.unitOfWork.run((ports) => ports.receipts.save(aReceiptOf(proposal)))).rejects.toBeInstanceOf(
        ConcurrencyConflict,
      );
    });
  });
}
