import { Module } from '@nestjs/common';
import { ChecksController } from './checks.controller';

/** GET /v1/check/missing-receipts and /v1/check/overdue-invoices (over ProviderChecks). */
@Module({
  controllers: [ChecksController],
})
export class ChecksModule {}
