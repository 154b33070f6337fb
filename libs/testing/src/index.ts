// Public surface of @app/testing.
export * from './time/manual-clock';
export * from './time/sequential-id-generator';
export type { Snapshottable } from './in-memory/snapshottable';
export * from './in-memory/in-memory-event-store';
export * from './in-memory/in-memory-proposal-repository';
export * from './in-memory/in-memory-pattern-store';
export * from './in-memory/in-memory-notifier';
export * from './in-memory/in-memory-company-settings-store';
export * from './in-memory/in-memory-receipt-store';
export * from './in-memory/in-memory-idempotency-store';
export * from './in-memory/in-memory-executions';
export * from './in-memory/in-memory-booked-receipts';
export * from './in-memory/in-memory-daily-checks';
export * from './in-memory/in-memory-company-repository';
export * from './in-memory/in-memory-provider-connection-repository';
export * from './in-memory/in-memory-booking-history-store';
export * from './in-memory/in-memory-unit-of-work';
export * from './in-memory/in-memory-submission-store';
export * from './in-memory/in-memory-console-session-store';
export * from './in-memory/in-memory-adapters';
export * from './mothers/origin.mother';
export * from './mothers/proposal.mother';
export * from './mothers/pattern.mother';
export * from './mothers/merchant-names';
export * from './contracts';
export * from './in-memory/in-memory-outbox-repository';
export * from './in-memory/in-memory-company-channel-directory';
export * from './in-memory/in-memory-provider-token-store';
export * from './in-memory/in-memory-wrapped-dek-repository';
export * from './mothers/notification.mother';
export * from './fakes/test-webhook-receiver';
export * from './fakes/fake-kms-server';
export { ManualTimer, ManualClock as ManualTimeSource } from './time/manual-timer';
// The sandbox's conformance check against the providers' own definitions, and the sandbox's own
// specs' kit (a sandbox on a manual clock, sessions, OAuth), driven through the sandbox's index.
export * from './sandbox/provider-contract';
export * from './sandbox/sandbox-test-kit';
export * from './in-memory/in-memory-company-context-store';
export * from './in-memory/in-memory-authorization-request-store';
export * from './in-memory/in-memory-employee-mapping-repository';
export * from './fakes/fake-provider-grant-exchange';
export * from './mothers/receipt-pdf.mother';
export * from './mothers/image-bomb.mother';
export * from './mothers/receipt-image.mother';
export * from './providers/test-provider-registry';
// A test-only provider, for the tests that show a provider needs only its folder and one line.
export { kassebok } from './providers/kassebok/kassebok.definition';
export * from './use-case-world';
