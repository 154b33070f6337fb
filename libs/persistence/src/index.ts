// Public surface of @app/persistence: the database, its migrations and the TypeORM adapters.
export * from './database/database';
export * from './database/database-outage';
export { runAsRequest } from './database/connection-pools';
export {
  auditTrailPrivilegeProblems,
  DatabaseRefused,
  grantAppRole,
  roleOfUrl,
  type AppRoleGrant,
} from './database/database-roles';
export * from './database/embedded-postgres';
export * from './persistence.module';
export * from './company/typeorm-company.repository';
export { MIGRATIONS } from './migrations';
export { ENTITIES } from './entities';
export * from './event-store/typeorm-event-store';
export * from './event-store/event-chain-verifier';
export * from './event-store/event-sealer';
export { EventChainKeys, EventChainKeyMissing } from './event-store/event-chain-keys';
export { canonicalJson, eventHash, GENESIS_HASH } from './event-store/event-hash';
export * from './proposal/typeorm-proposal.repository';
export * from './proposal/typeorm-submission.store';
export * from './proposal/typeorm-submission-reads';
export { TypeOrmPatternStore } from './pattern/typeorm-pattern.store';
export * from './settings/typeorm-company-settings.store';
export * from './outbox/typeorm-outbox.repository';
export * from './vault/typeorm-wrapped-dek.repository';
export * from './unit-of-work/typeorm-unit-of-work';
export * from './provider-connection/typeorm-provider-connection.repository';
export * from './provider-connection/typeorm-provider-token-store';
export * from './provider-connection/typeorm-authorization-request.store';
export { KeyedMutex, PROCESS_CONNECTION_LOCKS } from './provider-connection/connection-locks';
export * from './context/typeorm-company-context.store';
export * from './employees/typeorm-employee-mapping.repository';
export * from './receipts/typeorm-receipt.store';
export * from './idempotency/typeorm-idempotency.store';
export * from './execution/typeorm-execution.queue';
export * from './execution/typeorm-execution.ledger';
export * from './daily-check/typeorm-daily-check-runs';
export * from './request-slots/postgres-shared-request-slots';
export * from './console/typeorm-console-session.store';
