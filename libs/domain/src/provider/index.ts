export * from './api-call';
export * from './provider-connection';
export * from './provider-error';
