import { randomBytes } from 'node:crypto';
import type { OAuthTokens } from '@app/domain';

/** A booking as Kassebok holds it. */
export interface KassebokEntry {
  readonly id: string;
  readonly reference: string;
  readonly date: string;
  readonly text: string;
  readonly expenseAccount: string;
  readonly paymentAccount: string;
  readonly vatRate: string;
  /** NOK paid, minor units. */
  readonly amount: number;
  attachment: string | null;
}

interface Company {
  readonly slug: string;
  readonly name: string;
  readonly entries: KassebokEntry[];
}

/** The chart every Kassebok company has. */
export const KASSEBOK_ACCOUNTS = [
  { code: '1920', name: 'Bankinnskudd' },
  { code: '6540', name: 'Inventar' },
  { code: '6800', name: 'Kontorrekvisita' },
  { code: '7140', name: 'Reisekostnad' },
] as const;

export const KASSEBOK_VAT_RATES = ['25', '15', '12', '0'] as const;

/**
 * Kassebok, an accounting provider that exists only in the test kit: an in-memory ledger with
 * OAuth consent. It shows (and proves) that a provider is its own folder plus one registration
 * line: the folder holds its ledger, adapter, grant exchange and definition.
 */
export class KassebokLedger {
  private readonly companies = new Map<string, Company>();
  private readonly codes = new Map<string, { slug: string; redirectUri: string; state: string }>();
  private readonly accessTokens = new Map<string, string>();
  private serial = 0;

  constructor(companies: ReadonlyArray<{ slug: string; name: string }> = [{ slug: 'acme', name: 'Acme AS' }]) {
    for (const c of companies) this.companies.set(c.slug, { ...c, entries: [] });
  }

  /** The admin approves access to `slug` at Kassebok's consent screen: the code the redirect carries. */
  consent(slug: string, redirectUri: string, state: string): string {
    if (!this.companies.has(slug)) throw new Error(`Kassebok has no company ${slug}`);
    const code = randomBytes(16).toString('base64url');
    this.codes.set(code, { slug, redirectUri, state });
    return code;
  }

  /** Redeems a code once, for tokens of its company; null when refused. */
  redeem(code: string, redirectUri: string, state: string, now: number): { tokens: OAuthTokens; slug: string } | null {
    const issued = this.codes.get(code);
    this.codes.delete(code);
    if (!issued || issued.redirectUri !== redirectUri || issued.state !== state) return null;
    const accessToken = randomBytes(16).toString('base64url');
    this.accessTokens.set(accessToken, issued.slug);
    return {
      slug: issued.slug,
      tokens: { accessToken, refreshToken: randomBytes(16).toString('base64url'), expiresAt: now + 3_600_000 },
    };
  }

  companyName(slug: string): string | null {
    return this.companies.get(slug)?.name ?? null;
  }

  /** The company an access token opens, if it opens `slug`. */
  entriesOf(accessToken: string, slug: string): KassebokEntry[] | null {
    if (this.accessTokens.get(accessToken) !== slug) return null;
    return this.companies.get(slug)?.entries ?? null;
  }

  /** Every booking of the company, read past the adapter (for tests). */
  bookings(slug: string): readonly KassebokEntry[] {
    return this.companies.get(slug)?.entries ?? [];
  }

  nextId(): string {
    this.serial += 1;
    return String(this.serial);
  }
}
