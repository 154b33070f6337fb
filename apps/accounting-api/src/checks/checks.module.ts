import { Module } from '@nestjs/common';
import { ProviderChecks } from '@app/application';
import { ChecksController } from './checks.controller';

/** GET /v1/check/missing-receipts and /v1/check/overdue-invoices, and the checks the daily job runs. */
@Module({
  controllers: [ChecksController],
  providers: [ProviderChecks],
  exports: [ProviderChecks],
})
export class ChecksModule {}
