// Public surface of @app/testing.
export * from './time/manual-clock';
export * from './time/sequential-id-generator';
export type { Snapshottable } from './in-memory/snapshottable';
export * from './in-memory/in-memory-event-store';
export * from './in-memory/in-memory-proposal-repository';
export * from './in-memory/in-memory-pattern-store';
export * from './in-memory/in-memory-notifier';
export * from './in-memory/in-memory-company-settings-store';
export * from './in-memory/in-memory-unit-of-work';
export * from './in-memory/in-memory-adapters';
export * from './mothers/origin.mother';
export * from './mothers/proposal.mother';
export * from './mothers/pattern.mother';
export * from './contracts';
