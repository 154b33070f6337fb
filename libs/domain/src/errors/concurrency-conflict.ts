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

/**
 * The active patterns of a merchant key are no longer the ones a caller scored against (one was
 * saved, strengthened or retired meanwhile): `PatternStore.expectActive` refused. The caller
 * re-reads the candidates and scores again; left unhandled it is a ConcurrencyConflict like any other.
 */
export class PatternsChanged extends ConcurrencyConflict {
  constructor(readonly merchantKey: string) {
    super(`the active patterns for merchant "${merchantKey}" changed while the proposal was being scored`);
  }
}
