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
export * from './in-memory/in-memory-unit-of-work';
export * from './in-memory/in-memory-console-session-store';
export * from './in-memory/in-memory-adapters';
export * from './mothers/origin.mother';
export * from './mothers/proposal.mother';
export * from './mothers/pattern.mother';
export * from './mothers/merchant-names';
export * from './contracts';
// Adapter test kits, re-exported here so that test code has one place to import them from and the
// production build (which excludes every testing/ folder) never sees jest globals.
export * from '../../notifications/src/testing/notification.mother';
export * from '../../notifications/src/testing/outbox-repository.contract';
export * from '../../notifications/src/testing/test-webhook-receiver';
export { ManualTimer, ManualClock as ManualTimeSource } from '../../notifications/src/testing/manual-time';
export * from '../../providers/src/testing/in-memory-provider-token-store';
export * from '../../providers/src/testing/provider-token-store.contract';
export * from '../../../apps/provider-sandbox/src/testing/provider-contract';
