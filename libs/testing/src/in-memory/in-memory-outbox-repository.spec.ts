import { describeOutboxRepositoryContract } from '../contracts/outbox-repository.contract';
import { InMemoryOutboxRepository } from './in-memory-outbox-repository';

describeOutboxRepositoryContract('InMemoryOutboxRepository', () => new InMemoryOutboxRepository());
