import { Injectable } from '@nestjs/common';
import {
  CompanyContextStore,
  CompanySettingsStore,
  PAID_WITH,
  resolvePaymentAccounts,
  updateCompanySettings,
  type CompanySettings,
  type CompanySettingsInput,
} from '@app/domain';
import { ApplicationOptions } from '../application.options';
import type { Caller } from '../shared/caller';
import { assertPublicWebhookTargets } from './webhook-target-policy';

/** GET /config/company: the caller's company settings (defaults until an admin saves some). */
@Injectable()
export class GetCompanySettingsHandler {
  constructor(private readonly settings: CompanySettingsStore) {}

  execute(caller: Caller): Promise<CompanySettings> {
    return this.settings.get(caller.company);
  }
}

export interface UpdateCompanySettingsCommand {
  readonly caller: Caller;
  /** The keys to change; absent keys keep their value, a null channel clears it. */
  readonly changes: CompanySettingsInput;
}

/**
 * PUT /config/company: validates every given key (all problems reported at once), applies the
 * production policy for notification targets, and saves. Returns the settings now in force.
 * Payment accounts that change are checked against the company's chart when it was fetched
 * (resolvePaymentAccounts: a plain number with one sub-ledger is stored as that sub-ledger; 422
 * unknown_account_code otherwise); before the first fetch they are stored as given.
 */
@Injectable()
export class UpdateCompanySettingsHandler {
  constructor(
    private readonly settings: CompanySettingsStore,
    private readonly contexts: CompanyContextStore,
    private readonly options: ApplicationOptions,
  ) {}

  async execute(command: UpdateCompanySettingsCommand): Promise<CompanySettings> {
    const current = await this.settings.get(command.caller.company);
    let next = updateCompanySettings(current, command.changes);
    const changed = PAID_WITH.filter((key) => next.paymentAccounts[key] !== current.paymentAccounts[key]);
    const context = changed.length > 0 ? await this.contexts.get(command.caller.company) : null;
    if (context) {
      next = { ...next, paymentAccounts: resolvePaymentAccounts(next.paymentAccounts, context.accounts, changed) };
    }
    if (this.options.strictWebhookTargets) assertPublicWebhookTargets(next, { ...command.changes });
    await this.settings.save(command.caller.company, next);
    return next;
  }
}
