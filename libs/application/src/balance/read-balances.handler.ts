import { Injectable } from '@nestjs/common';
import { AccountingProvider, Clock, formatMoney, parseAccountingDate, type ProviderKind } from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';

export interface BalanceView {
  readonly provider: ProviderKind;
  readonly date: string;
  /** Closing balances at the end of `date`, decimal strings (debit positive). */
  readonly accounts: Array<{ code: string; name: string; balance: string }>;
}

/** The calendar date in Norway (both providers keep Norwegian books). */
export function osloToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * The balance query (spec §1 flows): the account list with balances, read live from the company's
 * provider. Read-only: no events, no review. The path's provider must be the company's.
 */
@Injectable()
export class ReadBalances {
  constructor(
    private readonly connections: ProviderConnections,
    private readonly provider: AccountingProvider,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, provider: ProviderKind, date?: string): Promise<BalanceView> {
    const day = date === undefined ? osloToday(this.clock.now()) : parseAccountingDate(date, 'date');
    const { connection } = await this.connections.require(companyId, provider);
    const balances = await this.connections.call(companyId, () => this.provider.balances(connection, day));
    return {
      provider,
      date: day,
      accounts: balances.map((b) => ({ code: b.code, name: b.name, balance: formatMoney(b.balance) })),
    };
  }
}
