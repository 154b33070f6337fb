import { DomainError } from './domain-error';

/**
 * Someone else wrote first: an event chain already holds an event at the sequence being appended,
 * or a stored aggregate's version is not the one the writer read. Maps to `409 invalid_transition`
 * (the contract has no separate code for it): the caller re-reads and either retries or reports
 * that the proposal's state changed under it. Never swallow it — a silent drop would lose an event.
 */
export class ConcurrencyConflict extends DomainError {
  constructor(message: string) {
    super('invalid_transition', message);
  }
}
