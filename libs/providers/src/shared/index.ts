export * from './create-once';
export * from './dates';
export * from './json';
export * from './money';
export * from './validate-booking';
export * from './url';
