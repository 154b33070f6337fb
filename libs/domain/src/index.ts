// Public surface of the pure domain. Other libs and apps import only from '@app/domain'.
export * from './errors/domain-error';
export * from './ports/clock.port';
export * from './ports/id-generator.port';
