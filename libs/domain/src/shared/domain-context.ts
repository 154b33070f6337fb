import { Clock } from '../ports/clock.port';
import { IdGenerator } from '../ports/id-generator.port';

/** Time and ids, the only impure inputs of the domain, passed in so that every rule is deterministic. */
export interface DomainContext {
  readonly clock: Clock;
  readonly ids: IdGenerator;
}
