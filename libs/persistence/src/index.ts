// Public surface of @app/persistence: the database, its migrations and the TypeORM adapters.
export * from './database/database';
export * from './database/embedded-postgres';
export * from './persistence.module';
export * from './company/typeorm-company.repository';
export { MIGRATIONS } from './migrations';
export { ENTITIES } from './entities';
