export * from './keyed-serial-queue';
export * from './request-slots';
export * from './provider-http';
export * from './resilience';
export * from './single-flight';
export * from './sleep';
export * from './transport-error';
