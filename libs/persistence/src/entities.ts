import { CompanyEntity } from './company/company.entity';

/** Every TypeORM entity schema of the service. */
export const ENTITIES = [CompanyEntity];
