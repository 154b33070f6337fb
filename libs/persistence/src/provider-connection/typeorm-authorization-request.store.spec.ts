import { describeAuthorizationRequestStoreContract } from '@app/testing';
import { createCompany, openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmAuthorizationRequestStore } from './typeorm-authorization-request.store';

// Issuing purges every company's expired requests: a database of its own, so that the contract's
// fixed instants neither purge nor are purged by other specs' requests.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('authorization_requests');
});

afterAll(async () => {
  await isolated.dispose();
});

describeAuthorizationRequestStoreContract(
  'TypeOrmAuthorizationRequestStore',
  () => new TypeOrmAuthorizationRequestStore(isolated.database.dataSource.manager),
  {
    prepareCompany: async (companyId) => {
      await createCompany(isolated.database, companyId);
    },
    teardown: async () => {
      await isolated.database.dataSource.query('DELETE FROM authorization_requests');
    },
  },
);
