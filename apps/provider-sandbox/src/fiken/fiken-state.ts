import { randomBytes } from 'node:crypto';
import { fikenCompanyIndexOfSlug } from '../constants';
import type { ResolvedOptions } from '../options';
import { LRUCache } from 'lru-cache';
import { FikenCompany } from './fiken-company';
import type { FikenAccessToken, FikenAuthorizationCode, FikenContact, FikenGrant, FikenPurchase } from './fiken-model';

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}

function opaqueToken(): string {
  return `${randomBytes(32).toString('base64')}`;
}

/** What the Fiken sandbox's one-request rule saw (`SandboxControl.for('fiken').traffic`). */
export interface FikenTraffic {
  requests: number;
  maxInFlight: number;
  concurrencyRejections: number;
  minStartGapMs: number | null;
  /** The shortest time in which ten consecutive gaps passed (eleven starts of one client), ms; null: fewer. */
  minTenGapsMs: number | null;
  /** The first and the last start, ms on the sandbox's monotonic clock (`performance.now()`); null before any. */
  firstStartMs: number | null;
  lastStartMs: number | null;
}

function emptyTraffic(): FikenTraffic {
  return {
    requests: 0,
    maxInFlight: 0,
    concurrencyRejections: 0,
    minStartGapMs: null,
    minTenGapsMs: null,
    firstStartMs: null,
    lastStartMs: null,
  };
}

/** OAuth grants and tokens, purchases, and the per-client concurrency and pacing of the Fiken sandbox. */
export class FikenState {
  /** Seeded companies are regenerated on demand: the most recently used are kept. */
  private readonly companies: LRUCache<number, FikenCompany>;
  private readonly codes = new Map<string, FikenAuthorizationCode>();
  private readonly grants = new Map<number, FikenGrant>();
  private readonly refreshTokens = new Map<string, number>();
  private readonly accessTokens = new Map<string, FikenAccessToken>();
  private readonly purchases = new Map<number, FikenPurchase[]>();
  /** Contacts created through the API, per company: replayed onto a company regenerated from its seed. */
  private readonly createdContacts = new Map<number, FikenContact[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly nextSlot = new Map<string, number>();
  private grantSequence = 0;
  private concurrencyRejections = 0;
  private traffic = emptyTraffic();
  private lastStart = new Map<string, number>();
  /** The last eleven starts of each client, oldest first. */
  private recentStarts = new Map<string, number[]>();

  constructor(readonly options: ResolvedOptions) {
    this.companies = new LRUCache({ max: 64 });
  }

  get companyCount(): number {
    return this.options.fiken.companies;
  }

  company(index: number): FikenCompany {
    const { seed, ledgerEndDate, ledgerDays, fiken } = this.options;
    let company = this.companies.get(index);
    if (company === undefined) {
      company = new FikenCompany(
        index,
        seed,
        fiken.entriesPerCompany,
        fiken.invoicesPerCompany,
        ledgerEndDate,
        ledgerDays,
      );
      for (const contact of this.createdContacts.get(index) ?? []) company.addSupplier(contact);
      this.companies.set(index, company);
    }
    return company;
  }

  companyBySlug(slug: string): FikenCompany | undefined {
    const index = fikenCompanyIndexOfSlug(slug);
    return index !== undefined && index < this.companyCount ? this.company(index) : undefined;
  }

  private now(): number {
    return this.options.now().getTime();
  }

  issueCode(clientId: string, redirectUri: string, companyIndex: number, state: string): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, {
      clientId,
      redirectUri,
      state,
      companyIndex,
      expiresAt: this.now() + this.options.fiken.authorizationCodeTtlSeconds * 1000,
      used: false,
    });
    return code;
  }

  /**
   * Redeems a code once; `undefined` when unknown, used, expired, or issued to another client,
   * redirect URI or state.
   */
  redeemCode(code: string, clientId: string, redirectUri: string | undefined, state: string): IssuedTokens | undefined {
    const record = this.codes.get(code);
    if (!record || record.used || record.expiresAt <= this.now() || record.clientId !== clientId) return undefined;
    record.used = true;
    if (record.redirectUri !== redirectUri || record.state !== state) return undefined;
    return this.issueGrant(clientId, record.companyIndex);
  }

  /** Creates a grant for a company and issues its first tokens. */
  issueGrant(clientId: string, companyIndex: number): IssuedTokens {
    const grant: FikenGrant = {
      id: ++this.grantSequence,
      clientId,
      companyIndex,
      refreshToken: opaqueToken(),
      revoked: false,
    };
    this.grants.set(grant.id, grant);
    this.refreshTokens.set(grant.refreshToken, grant.id);
    return this.tokensFor(grant);
  }

  /** Rotates a refresh token: the old one stops working the moment it is used. */
  refresh(refreshToken: string, clientId: string): IssuedTokens | undefined {
    const grantId = this.refreshTokens.get(refreshToken);
    const grant = grantId !== undefined ? this.grants.get(grantId) : undefined;
    if (!grant || grant.revoked || grant.clientId !== clientId || grant.refreshToken !== refreshToken) return undefined;
    this.refreshTokens.delete(refreshToken);
    grant.refreshToken = opaqueToken();
    this.refreshTokens.set(grant.refreshToken, grant.id);
    return this.tokensFor(grant);
  }

  private tokensFor(grant: FikenGrant): IssuedTokens {
    const accessToken = opaqueToken();
    const ttl = this.options.fiken.accessTokenTtlSeconds;
    this.accessTokens.set(accessToken, { grantId: grant.id, expiresAt: this.now() + ttl * 1000 });
    this.pruneAccessTokens();
    return {
      access_token: accessToken,
      refresh_token: grant.refreshToken,
      token_type: 'bearer',
      expires_in: ttl,
      scope: 'read write',
    };
  }

  /** Revokes the grant a token (access or refresh) belongs to. Unknown tokens are ignored. */
  revoke(token: string, clientId: string): void {
    const grantId = this.accessTokens.get(token)?.grantId ?? this.refreshTokens.get(token);
    const grant = grantId !== undefined ? this.grants.get(grantId) : undefined;
    if (!grant || grant.clientId !== clientId) return;
    grant.revoked = true;
    this.refreshTokens.delete(grant.refreshToken);
  }

  /** The grant behind a bearer token, with why it is refused when it is. */
  authenticate(accessToken: string): { grant: FikenGrant } | { refused: 'unknown' | 'expired' | 'revoked' } {
    const token = this.accessTokens.get(accessToken);
    if (!token) return { refused: 'unknown' };
    const grant = this.grants.get(token.grantId);
    if (!grant || grant.revoked) return { refused: 'revoked' };
    if (token.expiresAt <= this.now()) return { refused: 'expired' };
    return { grant };
  }

  grantOfAccessToken(accessToken: string): FikenGrant | undefined {
    const token = this.accessTokens.get(accessToken);
    return token ? this.grants.get(token.grantId) : undefined;
  }

  expireAccessTokens(predicate: (grant: FikenGrant) => boolean): number {
    const now = this.now();
    let expired = 0;
    for (const token of this.accessTokens.values()) {
      const grant = this.grants.get(token.grantId);
      if (grant && predicate(grant) && token.expiresAt > now) {
        token.expiresAt = now;
        expired++;
      }
    }
    return expired;
  }

  invalidateRefreshTokens(predicate: (grant: FikenGrant) => boolean): number {
    let invalidated = 0;
    for (const grant of this.grants.values()) {
      if (predicate(grant) && this.refreshTokens.delete(grant.refreshToken)) invalidated++;
    }
    return invalidated;
  }

  purchasesOf(companyIndex: number): FikenPurchase[] {
    return this.purchases.get(companyIndex) ?? [];
  }

  addPurchase(companyIndex: number, purchase: FikenPurchase): void {
    const list = this.purchases.get(companyIndex);
    if (list) list.push(purchase);
    else this.purchases.set(companyIndex, [purchase]);
  }

  /** Creates a supplier contact (POST /contacts) with the next supplier number and its 2400 sub-ledger. */
  addSupplier(
    companyIndex: number,
    fields: Omit<FikenContact, 'contactId' | 'supplierNumber' | 'account'>,
  ): FikenContact {
    const company = this.company(companyIndex);
    const supplierNumber = company.nextSupplierNumber();
    const contact: FikenContact = {
      ...fields,
      contactId: 9_000_000 + companyIndex * 10_000 + supplierNumber,
      supplierNumber,
      account: `2400:${supplierNumber}`,
    };
    const list = this.createdContacts.get(companyIndex);
    if (list) list.push(contact);
    else this.createdContacts.set(companyIndex, [contact]);
    company.addSupplier(contact);
    return contact;
  }

  /** Takes the one request slot of a client; `false` when a request of the same client is in flight. */
  enter(key: string): boolean {
    const inFlight = this.inFlight.get(key) ?? 0;
    this.traffic.maxInFlight = Math.max(this.traffic.maxInFlight, inFlight + 1);
    if (inFlight > 0) {
      this.concurrencyRejections++;
      this.traffic.concurrencyRejections++;
      return false;
    }
    this.inFlight.set(key, 1);
    const now = performance.now();
    const last = this.lastStart.get(key);
    if (last !== undefined) {
      const gap = now - last;
      this.traffic.minStartGapMs = Math.min(this.traffic.minStartGapMs ?? gap, gap);
    }
    this.lastStart.set(key, now);
    const recent = this.recentStarts.get(key) ?? [];
    recent.push(now);
    if (recent.length > 11) recent.shift();
    this.recentStarts.set(key, recent);
    if (recent.length === 11) {
      const span = now - recent[0];
      this.traffic.minTenGapsMs = Math.min(this.traffic.minTenGapsMs ?? span, span);
    }
    this.traffic.requests++;
    this.traffic.firstStartMs ??= now;
    this.traffic.lastStartMs = now;
    return true;
  }

  /**
   * What the one-request rule saw since the last reset (every client together): requests let in, the
   * most requests of one client in flight at once (a rejected one counted while it arrived), the 429s
   * for concurrency, the shortest time between two starts of one client's requests (null: < 2) and
   * in which ten gaps passed, and when the first and the last request started.
   */
  fikenTraffic(): FikenTraffic {
    return { ...this.traffic };
  }

  leave(key: string): void {
    this.inFlight.delete(key);
  }

  /** Whether a concurrency 429 carries `Retry-After` (every other one does, as the real one is inconsistent). */
  retryAfterOnRejection(): boolean {
    return this.concurrencyRejections % 2 === 1;
  }

  /** Milliseconds a client's call waits to stay under the configured requests per second (wall clock). */
  paceDelay(key: string): number {
    const rps = this.options.fiken.requestsPerSecond;
    if (rps <= 0) return 0;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot.get(key) ?? 0);
    this.nextSlot.set(key, slot + 1000 / rps);
    return slot - now;
  }

  reset(): void {
    this.codes.clear();
    this.grants.clear();
    this.refreshTokens.clear();
    this.accessTokens.clear();
    this.purchases.clear();
    if (this.createdContacts.size > 0) this.companies.clear();
    this.createdContacts.clear();
    this.inFlight.clear();
    this.nextSlot.clear();
    this.traffic = emptyTraffic();
    this.lastStart.clear();
    this.recentStarts.clear();
    this.grantSequence = 0;
    this.concurrencyRejections = 0;
  }

  private pruneAccessTokens(): void {
    if (this.accessTokens.size < 20_000) return;
    const cutoff = this.now() - 86_400_000;
    for (const [token, record] of this.accessTokens) {
      if (record.expiresAt < cutoff) this.accessTokens.delete(token);
    }
  }
}
