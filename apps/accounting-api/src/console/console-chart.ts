import type { CompanyContext } from '@app/domain';

/** An account code with its name from the company's chart (`6340 Lys og varme`), or the code alone. */
export function accountLabel(code: string, context: CompanyContext | null): string {
  const account = context?.accounts.find((a) => a.code === code);
  return account ? `${code} ${account.name}` : code;
}
