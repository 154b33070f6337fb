export * from './create-once';
export * from './dates';
export * from './json';
export * from './money';
export * from './system-clock';
export * from './validate-booking';
export * from './url';
