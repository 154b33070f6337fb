import { InvalidTransition, NotFound } from '../errors/domain-error';
import { DomainContext } from '../shared/domain-context';
import { EventOrigin } from '../identity/identity';
import {
  DomainEventOf,
  PatternEvent,
  PatternRetiredEvent,
  PatternSavedEvent,
  PatternSnapshot,
} from '../events/domain-event';
import { normalizeMerchant } from '../confidence/normalize-merchant';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { parseAccountCode } from '../values/account-code';
import { parseVatRate, sameVatRate } from '../values/vat-rate';
import { isOrganizationNumber } from '../values/norwegian-numbers';
import { VAT_TREATMENTS, type VatTreatment } from '../bookkeeping/bookkeeping';
import { Proposal } from '../proposal/proposal';
import { EMPTY_AMOUNT_STATS, observeAmount } from './amount-stats';
import type { DerivedSuggestion } from '../history/booking-history';
import { isPendingSuggestion, Pattern, withConfirmer } from './pattern';
import type { PatternKey } from '../ports/pattern-store.port';

export interface PatternChange<E extends PatternEvent = PatternEvent> {
  readonly pattern: Pattern;
  readonly events: E[];
}

/**
 * Learns from a reviewer's approval (docs/api.md §4.2): saves a new pattern merchant → (account,
 * VAT) with the approved (corrected) values, or strengthens the existing active one with the same
 * key, account and VAT rate (one more approval, one more amount observation). Either way the
 * pattern counts as verified, the reviewer is one of its confirmers, and a PatternSaved event
 * names the proposal. The pattern also learns the approved VAT treatment and, from a supplier
 * invoice, the supplier's organisation number: the latest approval's (corrections included), so a
 * correction teaches the new value; an expense's approval, which names no supplier, keeps the one
 * known. The key is the merchant's key as normalised today, so that a proposal
 * stored before a change of normalizeMerchant still teaches the pattern that scores its merchant.
 *
 * `existing` is the caller's PatternStore.findActiveByKey result for learningKeyOf(proposal).
 */
export function learnFromApproval(
  existing: Pattern | null,
  proposal: Proposal,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternSavedEvent> {
  if (proposal.status !== 'APPROVED' && proposal.status !== 'EXECUTED') {
    throw new InvalidTransition(`cannot learn a pattern from proposal ${proposal.id} in status ${proposal.status}`);
  }
  const key = learningKeyOf(proposal);
  const now = ctx.clock.now();
  if (existing) assertPatternOf(existing, proposal);
  const pattern: Pattern = existing
    ? {
        ...existing,
        merchantName: proposal.merchant,
        vatTreatment: proposal.vatTreatment,
        supplierOrganizationNumber: proposal.supplier?.organizationNumber ?? existing.supplierOrganizationNumber,
        approvals: existing.approvals + 1,
        amountStats: observeAmount(existing.amountStats, proposal.amount),
        verified: true,
        confirmedBy: withConfirmer(existing.verified ? existing.confirmedBy : [], origin.actor),
        version: existing.version + 1,
        updatedAt: now,
      }
    : {
        id: ctx.ids.next(),
        companyId: proposal.companyId,
        merchantKey: key.merchantKey,
        merchantName: proposal.merchant,
        accountCode: proposal.accountCode,
        vatRate: proposal.vatRate,
        vatTreatment: proposal.vatTreatment,
        supplierOrganizationNumber: proposal.supplier?.organizationNumber ?? null,
        approvals: 1,
        amountStats: observeAmount(EMPTY_AMOUNT_STATS, proposal.amount),
        verified: true,
        writtenBy: null,
        lastChangedBy: null,
        confirmedBy: [origin.actor],
        history: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
        retiredAt: null,
      };
  return {
    pattern,
    events: [
      patternEvent(pattern, 'PatternSaved', origin, proposal.id, now, ctx, {
        cause: 'approval',
        pattern: snapshotOf(pattern),
      }),
    ],
  };
}

/**
 * An auto-approved proposal was executed, so no one rejected it during the execution delay: its
 * amount becomes one more observation of the pattern it rested on (the approvals count, which
 * counts people, stays). Called by the executor in the unit of work that stores `Executed`, so it
 * happens exactly once per execution; a rejected auto-approval is never executed and never counts.
 *
 * `pattern` is the caller's PatternStore.findActiveByKey result for learningKeyOf(proposal).
 */
export function observeExecutedAutoApproval(
  pattern: Pattern,
  proposal: Proposal,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternSavedEvent> {
  if (proposal.status !== 'EXECUTED' || !proposal.autoApproved) {
    throw new InvalidTransition(
      `proposal ${proposal.id} is not an executed auto-approval (status ${proposal.status}): its amount is not observed`,
    );
  }
  assertPatternOf(pattern, proposal);
  const now = ctx.clock.now();
  const observed: Pattern = {
    ...pattern,
    amountStats: observeAmount(pattern.amountStats, proposal.amount),
    version: pattern.version + 1,
    updatedAt: now,
  };
  return {
    pattern: observed,
    events: [
      patternEvent(observed, 'PatternSaved', origin, proposal.id, now, ctx, {
        cause: 'auto_approval_executed',
        pattern: snapshotOf(observed),
      }),
    ],
  };
}

/** The pattern key a proposal teaches or strengthens: its merchant as normalised today, its account and VAT rate. */
export function learningKeyOf(proposal: Proposal): PatternKey {
  return {
    merchantKey: normalizeMerchant(proposal.merchant),
    accountCode: proposal.accountCode,
    vatRate: proposal.vatRate,
  };
}

function assertPatternOf(pattern: Pattern, proposal: Proposal): void {
  if (pattern.companyId !== proposal.companyId) throw new NotFound('pattern', pattern.id);
  const key = learningKeyOf(proposal);
  const matches =
    pattern.merchantKey === key.merchantKey &&
    pattern.accountCode === key.accountCode &&
    sameVatRate(pattern.vatRate, key.vatRate);
  if (!matches || pattern.retiredAt !== null) {
    throw new InvalidTransition(
      `pattern ${pattern.id} does not match proposal ${proposal.id}'s merchant, account and VAT rate`,
    );
  }
}

export interface NewPatternInput {
  merchantName?: unknown;
  accountCode?: unknown;
  vatRate?: unknown;
  /** One of VAT_TREATMENTS, or null (not known). Left out: null on creation, unchanged on an edit. */
  vatTreatment?: unknown;
  /** The supplier's organisation number (9 digits, mod-11), or null. Left out: as vatTreatment. */
  supplierOrganizationNumber?: unknown;
  /** Defaults to true: an accountant writing a rule vouches for it. */
  verified?: unknown;
}

/** An accountant's pattern (POST /patterns): no approvals or amounts yet, verified unless said otherwise. */
export function createPattern(
  companyId: string,
  input: NewPatternInput,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternSavedEvent> {
  const values = parsePatternFields(input, true);
  const verified = values.verified ?? true;
  const now = ctx.clock.now();
  const pattern: Pattern = {
    id: ctx.ids.next(),
    companyId,
    merchantKey: normalizeMerchant(values.merchantName),
    merchantName: values.merchantName,
    accountCode: values.accountCode,
    vatRate: values.vatRate,
    vatTreatment: values.vatTreatment ?? null,
    supplierOrganizationNumber: values.supplierOrganizationNumber ?? null,
    approvals: 0,
    amountStats: EMPTY_AMOUNT_STATS,
    verified,
    writtenBy: origin.actor,
    lastChangedBy: null,
    confirmedBy: verified ? [origin.actor] : [],
    history: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    retiredAt: null,
  };
  return {
    pattern,
    events: [
      patternEvent(pattern, 'PatternSaved', origin, null, now, ctx, { cause: 'created', pattern: snapshotOf(pattern) }),
    ],
  };
}

/**
 * An accountant's edit (PUT /patterns/{id}): any of name, account, VAT rate, VAT treatment,
 * supplier organisation number, verified. Counts are kept. The editor becomes the pattern's last
 * changer (their own proposals no longer auto-approve from it) and, when it stays verified, a
 * confirmer; an edit of the rule itself (merchant, account, VAT rate, treatment or supplier) voids
 * the earlier confirmations, which were of another rule.
 */
export function editPattern(
  pattern: Pattern,
  changes: NewPatternInput,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternSavedEvent> {
  const values = parsePatternFields(changes, false);
  if (pattern.retiredAt !== null) throw new InvalidTransition(`cannot edit pattern ${pattern.id}: it is retired`);
  const now = ctx.clock.now();
  const merchantName = values.merchantName ?? pattern.merchantName;
  const merchantKey = normalizeMerchant(merchantName);
  const accountCode = values.accountCode ?? pattern.accountCode;
  const vatRate = values.vatRate ?? pattern.vatRate;
  const vatTreatment = values.vatTreatment === undefined ? pattern.vatTreatment : values.vatTreatment;
  const supplierOrganizationNumber =
    values.supplierOrganizationNumber === undefined
      ? pattern.supplierOrganizationNumber
      : values.supplierOrganizationNumber;
  const verified = values.verified ?? pattern.verified;
  const sameRule =
    merchantKey === pattern.merchantKey &&
    accountCode === pattern.accountCode &&
    sameVatRate(vatRate, pattern.vatRate) &&
    vatTreatment === pattern.vatTreatment &&
    supplierOrganizationNumber === pattern.supplierOrganizationNumber;
  const earlier = sameRule && pattern.verified ? pattern.confirmedBy : [];
  const edited: Pattern = {
    ...pattern,
    merchantName,
    merchantKey,
    accountCode,
    vatRate,
    vatTreatment,
    supplierOrganizationNumber,
    verified,
    lastChangedBy: origin.actor,
    confirmedBy: verified ? withConfirmer(earlier, origin.actor) : [],
    version: pattern.version + 1,
    updatedAt: now,
  };
  return {
    pattern: edited,
    events: [
      patternEvent(edited, 'PatternSaved', origin, null, now, ctx, { cause: 'edited', pattern: snapshotOf(edited) }),
    ],
  };
}

/**
 * What the history import makes of one derived suggestion, given the merchant's active patterns
 * (`existing`, every one with its key):
 *
 * - none: a new unverified pattern with the history's amounts and evidence (PatternSaved,
 *   cause `suggested`), which scores in the review-recommended band until confirmed;
 * - a pending suggestion for the same account and VAT rate: its amounts and evidence refreshed;
 * - a pending suggestion for another account: retired, and the new one suggested;
 * - any other pattern (learnt from approvals, written by an accountant, or a confirmed
 *   suggestion): null — what people decided stands, and the history does not argue with it.
 */
export function suggestPattern(
  companyId: string,
  existing: readonly Pattern[],
  derived: DerivedSuggestion,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange[] {
  const active = existing.filter(
    (pattern) => pattern.retiredAt === null && pattern.merchantKey === derived.merchantKey,
  );
  if (active.some((pattern) => !isPendingSuggestion(pattern))) return [];
  const now = ctx.clock.now();
  const history = {
    bookings: derived.bookings,
    merchantBookings: derived.merchantBookings,
    firstDate: derived.firstDate,
    lastDate: derived.lastDate,
  };
  const same = active.find(
    (pattern) => pattern.accountCode === derived.accountCode && sameVatRate(pattern.vatRate, derived.vatRate),
  );
  if (same) {
    const refreshed: Pattern = {
      ...same,
      merchantName: derived.merchantName,
      amountStats: derived.amountStats,
      history,
      version: same.version + 1,
      updatedAt: now,
    };
    return [
      {
        pattern: refreshed,
        events: [
          patternEvent(refreshed, 'PatternSaved', origin, null, now, ctx, {
            cause: 'suggested',
            pattern: snapshotOf(refreshed),
          }),
        ],
      },
    ];
  }
  const retired = active.map((pattern) => retirePattern(pattern, origin, ctx));
  const pattern: Pattern = {
    id: ctx.ids.next(),
    companyId,
    merchantKey: derived.merchantKey,
    merchantName: derived.merchantName,
    accountCode: derived.accountCode,
    vatRate: derived.vatRate,
    // The books read show accounts and VAT codes, not how a purchase's VAT was treated or whose invoice it was.
    vatTreatment: null,
    supplierOrganizationNumber: null,
    approvals: 0,
    amountStats: derived.amountStats,
    verified: false,
    writtenBy: null,
    lastChangedBy: null,
    confirmedBy: [],
    history,
    version: 1,
    createdAt: now,
    updatedAt: now,
    retiredAt: null,
  };
  return [
    ...retired,
    {
      pattern,
      events: [
        patternEvent(pattern, 'PatternSaved', origin, null, now, ctx, {
          cause: 'suggested',
          pattern: snapshotOf(pattern),
        }),
      ],
    },
  ];
}

/**
 * An accountant confirms a suggestion: it becomes a verified pattern whose amount statistics are
 * the history's, with the accountant as its confirmer — not its writer, so her own proposals still
 * need someone else's confirmation to auto-approve (separation of duties). PatternSaved, cause
 * `suggestion_confirmed`, names her.
 */
export function confirmSuggestion(
  pattern: Pattern,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternSavedEvent> {
  if (!isPendingSuggestion(pattern)) {
    throw new InvalidTransition(
      `pattern ${pattern.id} is not a pending suggestion: ${
        pattern.retiredAt !== null
          ? 'it is retired'
          : pattern.history === null
            ? 'it was not suggested by the history'
            : 'it is already confirmed'
      }`,
    );
  }
  const now = ctx.clock.now();
  const confirmed: Pattern = {
    ...pattern,
    verified: true,
    confirmedBy: [origin.actor],
    version: pattern.version + 1,
    updatedAt: now,
  };
  return {
    pattern: confirmed,
    events: [
      patternEvent(confirmed, 'PatternSaved', origin, null, now, ctx, {
        cause: 'suggestion_confirmed',
        pattern: snapshotOf(confirmed),
      }),
    ],
  };
}

/** Retires a pattern (DELETE /patterns/{id}): kept for the audit trail, ignored by scoring from now on. */
export function retirePattern(
  pattern: Pattern,
  origin: EventOrigin,
  ctx: DomainContext,
): PatternChange<PatternRetiredEvent> {
  if (pattern.retiredAt !== null)
    throw new InvalidTransition(`cannot retire pattern ${pattern.id}: it is already retired`);
  const now = ctx.clock.now();
  const retired: Pattern = { ...pattern, retiredAt: now, version: pattern.version + 1, updatedAt: now };
  return {
    pattern: retired,
    events: [patternEvent(retired, 'PatternRetired', origin, null, now, ctx, { pattern: snapshotOf(retired) })],
  };
}

export function snapshotOf(pattern: Pattern): PatternSnapshot {
  return {
    id: pattern.id,
    merchantKey: pattern.merchantKey,
    merchantName: pattern.merchantName,
    accountCode: pattern.accountCode,
    vatRate: pattern.vatRate,
    vatTreatment: pattern.vatTreatment,
    supplierOrganizationNumber: pattern.supplierOrganizationNumber,
    approvals: pattern.approvals,
    verified: pattern.verified,
    amountStats: { ...pattern.amountStats },
  };
}

interface PatternFields {
  merchantName: string;
  accountCode: string;
  vatRate: string;
  vatTreatment?: VatTreatment | null;
  supplierOrganizationNumber?: string | null;
  verified?: boolean;
}

function parsePatternFields(input: NewPatternInput, required: true): PatternFields;
function parsePatternFields(input: NewPatternInput, required: false): Partial<PatternFields>;
function parsePatternFields(input: NewPatternInput, required: boolean): Partial<PatternFields> {
  const errors = new FieldErrorCollector();
  const present = (value: unknown) => required || value !== undefined;
  const merchantName = present(input.merchantName)
    ? errors.check(() => {
        const name = typeof input.merchantName === 'string' ? input.merchantName.trim() : '';
        if (name === '' || name.length > 200) invalidField('merchantName', 'must be 1 to 200 characters');
        if (normalizeMerchant(name) === '')
          invalidField('merchantName', 'must contain a name, not only punctuation or numbers');
        return name;
      })
    : undefined;
  const accountCode = present(input.accountCode) ? errors.check(() => parseAccountCode(input.accountCode)) : undefined;
  const vatRate = present(input.vatRate) ? errors.check(() => parseVatRate(input.vatRate)) : undefined;
  const vatTreatment =
    input.vatTreatment === undefined || input.vatTreatment === null
      ? input.vatTreatment
      : errors.check(() => {
          if (!(VAT_TREATMENTS as readonly unknown[]).includes(input.vatTreatment))
            invalidField('vatTreatment', `must be one of ${VAT_TREATMENTS.join(', ')}, or null (not known)`);
          return input.vatTreatment as VatTreatment;
        });
  const supplierOrganizationNumber =
    input.supplierOrganizationNumber === undefined || input.supplierOrganizationNumber === null
      ? input.supplierOrganizationNumber
      : errors.check(() => {
          const text =
            typeof input.supplierOrganizationNumber === 'string'
              ? input.supplierOrganizationNumber.replace(/\s/g, '')
              : null;
          if (text === null || !isOrganizationNumber(text))
            invalidField(
              'supplierOrganizationNumber',
              'must be a Norwegian organisation number (9 digits with a valid mod-11 check digit), or null',
            );
          return text;
        });
  const verified =
    input.verified === undefined
      ? undefined
      : errors.check(() => {
          if (typeof input.verified !== 'boolean') invalidField('verified', 'must be true or false');
          return input.verified;
        });
  errors.throwIfAny('the pattern is invalid');
  return {
    ...(merchantName !== undefined && { merchantName }),
    ...(accountCode !== undefined && { accountCode }),
    ...(vatRate !== undefined && { vatRate }),
    ...(vatTreatment !== undefined && { vatTreatment }),
    ...(supplierOrganizationNumber !== undefined && { supplierOrganizationNumber }),
    ...(verified !== undefined && { verified }),
  };
}

function patternEvent<T extends PatternEvent['type']>(
  pattern: Pattern,
  type: T,
  origin: EventOrigin,
  proposalId: string | null,
  now: Date,
  ctx: DomainContext,
  data: DomainEventOf<T>['data'],
): DomainEventOf<T> {
  const event = {
    id: ctx.ids.next(),
    type,
    status: null,
    proposalId,
    correlationId: pattern.id,
    sequence: pattern.version,
    occurredAt: now,
    actor: origin.actor,
    company: pattern.companyId,
    channel: origin.channel,
    // No provider is involved in keeping patterns.
    provider: null,
    api_calls: [],
    confidence: null,
    data,
  };
  // TypeScript cannot correlate `type` with `data` through the generic; both come from T.
  return event as DomainEventOf<T>;
}
