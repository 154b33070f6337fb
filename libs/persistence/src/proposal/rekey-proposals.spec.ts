import { randomUUID } from 'node:crypto';
import { normalizeMerchant } from '@app/domain';
import { aProposal } from '@app/testing';
import { submissionRead } from '../testing/submission-read';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { rekeyProposals } from './rekey-proposals';
import { TypeOrmProposalRepository } from './typeorm-proposal.repository';

// It rewrites every proposal of the database: it gets one of its own.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('rekey_proposals');
});

afterAll(async () => {
  await isolated.dispose();
});

describe('re-keying stored proposals when normalizeMerchant changes', () => {
  it('gives every proposal the key its merchant has today, so that the duplicate check meets it again', async () => {
    const manager = isolated.database.dataSource.manager;
    const repository = new TypeOrmProposalRepository(manager);
    const company = await createCompany(isolated.database);
    const proposalOf = (merchant: string, merchantKey: string) => {
      const id = randomUUID();
      return { ...aProposal('PROPOSED', { companyId: company }), id, correlationId: id, merchant, merchantKey };
    };
    // As a version before today's normalisation stored them, and one stored today.
    const stale = proposalOf('SPOTIFY AB *P2B9C1X', 'spotify ab p 2 b 9 c 1 x');
    const current = proposalOf('Telenor', normalizeMerchant('Telenor'));
    await repository.insert(stale);
    await repository.insert(current);
    const earlier = async () => (await submissionRead(manager, company, query)).earlier;
    const query = {
      merchantKey: normalizeMerchant('Spotify AB'),
      amountMin: stale.amount,
      amountMax: stale.amount,
      dateFrom: stale.date,
      dateTo: stale.date,
      submittedSince: new Date(0),
    };
    expect(await earlier()).toEqual([]);

    expect(await rekeyProposals(manager)).toBe(1);

    expect((await repository.findById(company, stale.id))!.merchantKey).toBe('spotify');
    expect((await repository.findById(company, current.id))!.merchantKey).toBe('telenor');
    expect((await earlier()).map((p) => p.id)).toEqual([stale.id]);
    expect(await rekeyProposals(manager)).toBe(0);
  });
});
