import { EventOrigin } from '@app/domain';

export const TEST_COMPANY = 'acme';
export const SUBMITTER = 'ola@example.no';
export const REVIEWER = 'kari@example.no';

/** The employee (through the agent) who submits a proposal. */
export function anOrigin(overrides: Partial<EventOrigin> = {}): EventOrigin {
  return { actor: SUBMITTER, channel: 'slack', provider: 'tripletex', ...overrides };
}

/** An accountant reviewing proposals: never the submitter. */
export function aReviewerOrigin(overrides: Partial<EventOrigin> = {}): EventOrigin {
  return { actor: REVIEWER, channel: 'web', provider: 'tripletex', ...overrides };
}
