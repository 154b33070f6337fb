import { Injectable } from '@nestjs/common';
import { AccountingProvider, Clock, formatMoney, parseAccountingDate, type ProviderKind } from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';

export interface BalanceView {
  readonly provider: ProviderKind;
  readonly date: string;
  /**
   * At the end of `date`, decimal strings (debit positive): balance-sheet accounts their closing
   * balance, result accounts their movement in the accounting year up to the date (the port's
   * meaning, the same on both providers). Accounts with a zero balance only when asked for.
   */
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

  /**
   * `includeUnmoved`: every account of the company's chart, those without a balance at 0; otherwise
   * only accounts with a balance (providers differ in which others they list: Tripletex only moved
   * accounts, Fiken every account).
   */
  async execute(
    companyId: string,
    provider: ProviderKind,
    date?: string,
    includeUnmoved = false,
  ): Promise<BalanceView> {
    const day = date === undefined ? osloToday(this.clock.now()) : parseAccountingDate(date, 'date');
    const { connection } = await this.connections.require(companyId, provider);
    const balances = await this.connections.call(companyId, () => this.provider.balances(connection, day));
    const listed = balances.filter((b) => includeUnmoved || b.balance !== 0);
    if (includeUnmoved) {
      const known = new Set(listed.map((b) => b.code));
      const chart = await this.connections.call(companyId, () => this.provider.fetchContext(connection));
      for (const account of chart.accounts) {
        if (!known.has(account.code)) listed.push({ code: account.code, name: account.name, balance: 0 });
      }
      listed.sort((a, b) => a.code.localeCompare(b.code));
    }
    return {
      provider,
      date: day,
      accounts: listed.map((b) => ({ code: b.code, name: b.name, balance: formatMoney(b.balance) })),
    };
  }
}
