import { randomBytes } from 'node:crypto';
import { tripletexCompanyIndexOfToken } from '../constants';
import type { ResolvedOptions } from '../options';
import { LRUCache } from 'lru-cache';
import { TripletexCompany } from './tripletex-company';
import type { TxDocument, TxParty, TxSession, TxVoucher } from './tripletex-model';
import { SANDBOX_ENTITLEMENTS } from './tripletex-privileges';

interface RateWindow {
  startedAt: number;
  count: number;
}

/** Everything the Tripletex sandbox remembers: sessions, bookings, uploads and rate windows. */
export class TripletexState {
  readonly sessions = new Map<string, TxSession>();
  /** Seeded companies are regenerated on demand: the most recently used are kept. */
  private readonly companies: LRUCache<number, TripletexCompany>;
  private readonly bookings = new Map<number, TxVoucher[]>();
  /** The same vouchers by id, so a read of one does not walk a company's whole list. */
  private readonly bookingsById = new Map<number, Map<number, TxVoucher>>();
  /** Suppliers created through the API, per company; seeded companies are regenerated with them. */
  private readonly createdSuppliers = new Map<number, TxParty[]>();
  private readonly uploads = new Map<number, Map<number, TxDocument>>();
  private readonly rateWindows = new Map<string, RateWindow>();
  /** Privileges taken from a company's employee token (by name); every other one is held. */
  private readonly withheld = new Map<number, Set<string>>();
  private sessionSequence = 0;
  private documentSequence = 0;

  constructor(readonly options: ResolvedOptions) {
    this.companies = new LRUCache({ max: 64 });
  }

  get companyCount(): number {
    return this.options.tripletex.companies;
  }

  company(index: number): TripletexCompany {
    const { seed, ledgerEndDate, ledgerDays, tripletex } = this.options;
    let company = this.companies.get(index);
    if (company === undefined) {
      company = new TripletexCompany(
        index,
        seed,
        tripletex.entriesPerCompany,
        tripletex.invoicesPerCompany,
        ledgerEndDate,
        ledgerDays,
      );
      company.suppliers.push(...(this.createdSuppliers.get(index) ?? []));
      this.companies.set(index, company);
    }
    return company;
  }

  companyByEmployeeToken(token: string): TripletexCompany | undefined {
    const index = tripletexCompanyIndexOfToken(token);
    return index !== undefined && index < this.companyCount ? this.company(index) : undefined;
  }

  /** Resolves a company from a company id or an employee token. */
  companyByKey(key: string): TripletexCompany | undefined {
    const byToken = this.companyByEmployeeToken(key);
    if (byToken) return byToken;
    if (!/^\d+$/.test(key)) return undefined;
    const id = Number(key);
    const index = Math.floor((id - 108_000) / 3);
    if (index < 0 || index >= this.companyCount) return undefined;
    const company = this.company(index);
    return company.id === id ? company : undefined;
  }

  createSession(
    company: TripletexCompany,
    consumerToken: string,
    expirationDate: string,
    expiresAt: number,
  ): TxSession {
    const session: TxSession = {
      id: ++this.sessionSequence,
      token: `eyJ0b2tlbklkIjo${randomBytes(24).toString('base64url')}`,
      companyIndex: company.index,
      consumerToken,
      employeeToken: company.employeeToken,
      expirationDate,
      expiresAt,
    };
    this.sessions.set(session.token, session);
    this.pruneSessions();
    return session;
  }

  /** Ends the lifetime of every live session in scope (a forced expiry). */
  expireSessions(predicate: (session: TxSession) => boolean): number {
    const now = this.options.now().getTime();
    let expired = 0;
    for (const session of this.sessions.values()) {
      if (predicate(session) && session.expiresAt > now) {
        session.expiresAt = now;
        expired++;
      }
    }
    return expired;
  }

  bookingsOf(companyIndex: number): TxVoucher[] {
    return this.bookings.get(companyIndex) ?? [];
  }

  addBooking(companyIndex: number, voucher: TxVoucher): void {
    const list = this.bookings.get(companyIndex);
    if (list) list.push(voucher);
    else this.bookings.set(companyIndex, [voucher]);
    const byId = this.bookingsById.get(companyIndex) ?? new Map<number, TxVoucher>();
    this.bookingsById.set(companyIndex, byId.set(voucher.id, voucher));
  }

  /** The company's voucher booked with this id, if any. */
  bookingById(companyIndex: number, id: number): TxVoucher | undefined {
    return this.bookingsById.get(companyIndex)?.get(id);
  }

  /** Creates a supplier in the company (POST /supplier): the next id and supplier number. */
  addSupplier(
    company: TripletexCompany,
    fields: Pick<TxParty, 'name' | 'organizationNumber' | 'email' | 'bankAccounts'>,
  ): TxParty {
    const created = this.createdSuppliers.get(company.index) ?? [];
    const lastNumber = company.suppliers.reduce((max, s) => Math.max(max, s.number), 0);
    const supplier: TxParty = {
      ...fields,
      id: 600_000_000 + company.index * 10_000 + created.length + 1,
      number: lastNumber + 1,
    };
    created.push(supplier);
    this.createdSuppliers.set(company.index, created);
    company.suppliers.push(supplier);
    return supplier;
  }

  nextBookingSequence(companyIndex: number): number {
    return this.bookingsOf(companyIndex).length + 1;
  }

  uploadsOf(companyIndex: number): ReadonlyMap<number, TxDocument> {
    return this.uploads.get(companyIndex) ?? new Map<number, TxDocument>();
  }

  recordUpload(companyIndex: number, voucherId: number, document: TxDocument): void {
    let map = this.uploads.get(companyIndex);
    if (!map) {
      map = new Map();
      this.uploads.set(companyIndex, map);
    }
    map.set(voucherId, document);
  }

  nextDocumentId(): number {
    return 900_000_000 + ++this.documentSequence;
  }

  /** Counts a call against the employee token's window; returns the window's state after it. */
  countCall(key: string): { allowed: boolean; remaining: number; resetSeconds: number; limit: number } {
    const { limit, windowSeconds } = this.options.tripletex.rateLimit;
    const now = this.options.now().getTime();
    let window = this.rateWindows.get(key);
    if (!window || now - window.startedAt >= windowSeconds * 1000) {
      window = { startedAt: now, count: 0 };
      this.rateWindows.set(key, window);
    }
    const resetSeconds = Math.max(0, Math.ceil((window.startedAt + windowSeconds * 1000 - now) / 1000));
    if (window.count >= limit) return { allowed: false, remaining: 0, resetSeconds, limit };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetSeconds, limit };
  }

  /** The privileges the company's employee token holds. */
  entitlements(index: number): (typeof SANDBOX_ENTITLEMENTS)[number][] {
    const withheld = this.withheld.get(index);
    return SANDBOX_ENTITLEMENTS.filter((e) => !withheld?.has(e.name));
  }

  /** Takes a privilege (by name) from the company's employee token, until `reset`. */
  withholdEntitlement(index: number, name: string): void {
    const withheld = this.withheld.get(index) ?? new Set<string>();
    withheld.add(name);
    this.withheld.set(index, withheld);
  }

  reset(): void {
    this.withheld.clear();
    this.sessions.clear();
    this.bookings.clear();
    this.bookingsById.clear();
    this.createdSuppliers.clear();
    // Companies hold the suppliers created in them: regenerate them from the seed.
    this.companies.clear();
    this.uploads.clear();
    this.rateWindows.clear();
    this.sessionSequence = 0;
    this.documentSequence = 0;
  }

  /** Sessions live in memory; long runs drop the ones that expired a day ago. */
  private pruneSessions(): void {
    if (this.sessions.size < 10_000) return;
    const cutoff = this.options.now().getTime() - 86_400_000;
    for (const [token, session] of this.sessions) {
      if (session.expiresAt < cutoff) this.sessions.delete(token);
    }
  }
}
