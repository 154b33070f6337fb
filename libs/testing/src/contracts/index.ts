export * from './contract-support';
export * from './event-store.contract';
export * from './proposal-repository.contract';
export * from './pattern-store.contract';
export * from './notifier.contract';
export * from './company-settings-store.contract';
export * from './unit-of-work.contract';
export * from './console-session-store.contract';
