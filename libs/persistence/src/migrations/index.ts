import { CreateCompanies1763773200000 } from './1763773200000-create-companies';

/** Every migration, in order. Listed explicitly so the same list works from ts (jest) and dist. */
export const MIGRATIONS = [CreateCompanies1763773200000];
