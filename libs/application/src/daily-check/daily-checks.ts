import { missingReceiptsCheck } from './checks/missing-receipts.check';
import { overdueInvoicesCheck } from './checks/overdue-invoices.check';
import type { DailyCheck } from './daily-check';

/**
 * The daily job's checks, in the order they run and appear in the message. The runner, the run
 * history, the message's renderers and the console iterate this list: a new check is a file in
 * `checks/` and a line here.
 */
export const DAILY_CHECKS: DailyCheck[] = [missingReceiptsCheck, overdueInvoicesCheck];
