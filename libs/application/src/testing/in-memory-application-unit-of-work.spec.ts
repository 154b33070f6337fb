import { createInMemoryAdapters } from '@app/testing';
import { describeApplicationUnitOfWorkContract } from './application-unit-of-work.contract';
import { InMemoryApplicationUnitOfWork } from './in-memory-application-unit-of-work';

describeApplicationUnitOfWorkContract('InMemoryApplicationUnitOfWork', () => {
  const unitOfWork = new InMemoryApplicationUnitOfWork(createInMemoryAdapters().unitOfWork);
  return { unitOfWork, receipts: unitOfWork.receipts };
});
