import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CompanyRepository } from '@app/domain';
import { Database, type DatabaseOptions } from './database/database';
import { TypeOrmCompanyRepository } from './company/typeorm-company.repository';

/** Closes the database (and the embedded server) when the application shuts down. */
@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/**
 * The persistence adapters. `forRoot` opens the database (real PostgreSQL or embedded PGlite),
 * runs migrations under the advisory lock when asked, and binds each domain port to its
 * TypeORM adapter.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: { useFactory: (...deps: never[]) => DatabaseOptions; inject?: unknown[] }): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        {
          provide: Database,
          useFactory: (...deps: never[]) => Database.open(options.useFactory(...deps)),
          inject: (options.inject ?? []) as never[],
        },
        { provide: DataSource, useFactory: (db: Database) => db.dataSource, inject: [Database] },
        DatabaseLifecycle,
        { provide: CompanyRepository, useClass: TypeOrmCompanyRepository },
      ],
      exports: [Database, DataSource, CompanyRepository],
    };
  }
}
