import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An employee mapping's default department: the provider's department an employee's proposals are
 * posted on when they name none and an account requires one.
 */
export class EmployeeDefaultDepartment1764271000001 implements MigrationInterface {
  name = 'EmployeeDefaultDepartment1764271000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE employee_mappings ADD COLUMN default_department_id text NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE employee_mappings DROP COLUMN default_department_id');
  }
}
