import { FAR_FACTOR, isAmountOutlier, MIN_OBSERVATIONS_FOR_SPREAD } from '../pattern/amount-stats';
import { Pattern } from '../pattern/pattern';
import { sameActor } from '../identity/identity';
import { formatMoney, MinorUnits } from '../values/money';
import { sameVatRate } from '../values/vat-rate';
import type { VatTreatment } from '../bookkeeping/bookkeeping';
import { normalizeMerchant } from './normalize-merchant';
import { minScoreOf, Route, routeFor } from './route';
import { merchantSimilarity } from './similarity';

/** What the engine looks at in a proposal. */
export interface ScoringInput {
  readonly merchant: string;
  readonly accountCode: string;
  readonly vatRate: string;
  readonly amount: MinorUnits;
  /** ISO 4217 code of `amount`. */
  readonly currency: string;
  /** The amount in NOK when `currency` is another one, if the submitter knows it. */
  readonly amountNok?: MinorUnits | null;
  /** Who submits it (the token's `sub`): separation of duties. */
  readonly submittedBy: string;
  /**
   * The proposal's lines, when it has several: each line's (account, VAT rate) must agree with
   * what the merchant's approvals have shown for it to auto-approve. Absent or one line: the
   * proposal's own account and rate are its line.
   */
  readonly lines?: readonly { readonly accountCode: string; readonly vatRate: string }[];
  /** How the purchase's VAT is treated (a proposal always has one; absent: not judged). */
  readonly vatTreatment?: VatTreatment;
  /** A supplier invoice's supplier; null or absent for an expense. */
  readonly supplier?: { readonly organizationNumber: string } | null;
}

/** The company's rules for auto-approval (its settings). */
export interface AutoApprovalPolicy {
  /** In NOK minor units; above it nothing auto-approves. Null: no limit. */
  readonly autoApproveMaxAmount: MinorUnits | null;
}

/** The currency of the books (Tripletex and Fiken keep Norwegian books in NOK): the limit is in it. */
export const BOOK_CURRENCY = 'NOK';

export interface ConfidenceAssessment {
  /** In [0, 1], rounded to 2 decimals. */
  readonly score: number;
  readonly route: Route;
  /** Why, in words a reviewer can read. Never empty. */
  readonly reasons: string[];
  /** normalizeMerchant(input.merchant). */
  readonly merchantKey: string;
  /** The pattern the score rests on, if any. */
  readonly patternId: string | null;
}

/** Two keys at least this alike are "similar names"; below it a candidate is ignored. */
export const SIMILAR_NAME_THRESHOLD = 0.8;

/**
 * The score bands. Each case's formula stays inside its band whatever the counts, which is what
 * makes the rules below hold:
 *
 * - exact key, verified pattern, account + VAT agree, nothing contradicts: 0.90 + 0.09·g(n)  → [0.90, 0.99)
 * - same, but no verified pattern:                                          0.75 + 0.10·g(n)  → [0.75, 0.85)
 * - exact key, but the history maps to several accounts/VAT rates:          0.50 + 0.35·share → (0.50, 0.85)
 * - exact key, account + VAT contradict every pattern:                      0.50 (VAT only) or 0.40 (account)
 * - similar name, account + VAT agree:                                      0.70 + 0.10·s + 0.05·g(n) → [0.70, 0.85]
 * - similar name, account or VAT differ:                                    0.35
 * - no candidate, or none similar enough:                                   0.00
 * - amount far from everything an agreeing pattern has seen: capped at      0.75
 * - exact key, account + VAT agree, but the VAT treatment or the supplier
 *   differs from (or is not yet known to) the pattern: capped at           0.85 (review recommended)
 * - an auto-approval held back by the company's limit or by separation
 *   of duties: capped at                                                    0.85 (review recommended)
 *
 * g(n) = 1 − 1/(n+1) grows with the agreeing approvals n; `share` is the agreeing patterns' share of
 * all approvals of the key; s scales the similarity from the threshold (0) to identity (1). So more
 * agreeing approvals never lower a score, and a similar name can never reach 0.9.
 *
 * The amount rule (isAmountOutlier): an amount is far when it is more than FAR_FACTOR (4) × the
 * largest or less than the smallest ÷ 4 amount the pattern has seen — from its first observation
 * on — or, from MIN_OBSERVATIONS_FOR_SPREAD (3) observations on, further from the mean than
 * max(3 σ, half the mean). Observations are a reviewer's approvals and the executed (never
 * rejected) auto-approvals. A pattern with no observation yet (an accountant's rule) judges no amount;
 * the limit below covers it.
 *
 * Holds, applied only to a score that would auto-approve (each adds its reason):
 * - the limit: an amount in NOK above the company's `autoApproveMaxAmount`, or an amount in another
 *   currency without `amountNok`, which cannot be compared with it;
 * - separation of duties: the submitter wrote the pattern, last changed it, or is the only person
 *   who confirmed it (Pattern.writtenBy / lastChangedBy / confirmedBy). Emails compare
 *   case-insensitively (sameActor);
 * - a proposal of several lines one of whose lines has an account and VAT rate no agreeing
 *   pattern has (the merchant's approvals have not shown that split).
 *
 * What the pattern learnt beyond account and VAT rate (checkLearntLinks), on an exact key:
 * - VAT treatment: the proposal's must be the agreeing pattern's. A pattern that knows none (learnt
 *   before treatments were, or an accountant's rule without one) counts as `domestic`, the only
 *   treatment there was: a domestic proposal passes, any other is held until an approval shows it;
 * - supplier: a supplier invoice's organisation number must be the one the pattern learnt. One the
 *   pattern does not know yet holds it too — the first invoice in a known merchant's name from an
 *   unknown organisation is what an invoice fraud looks like. An expense names no supplier and is
 *   not checked.
 */
const BANDS = {
  verifiedBase: 0.9,
  verifiedGain: 0.09,
  unverifiedBase: 0.75,
  unverifiedGain: 0.1,
  ambiguousBase: 0.5,
  ambiguousGain: 0.35,
  vatContradicts: 0.5,
  accountContradicts: 0.4,
  similarBase: 0.7,
  similarNameGain: 0.1,
  similarApprovalGain: 0.05,
  similarContradicts: 0.35,
  amountOutlierCap: 0.75,
  holdCap: 0.85,
} as const;

/**
 * The ConfidenceEngine: a pure, deterministic function of a proposal, the candidate patterns the
 * PatternStore found for it (exact key matches and look-alikes) and the company's auto-approval
 * policy. It decides itself which candidates are the same merchant (equal normalised keys) and
 * which are merely similar; retired candidates are ignored, and the order of candidates does not
 * matter.
 */
export class ConfidenceEngine {
  score(input: ScoringInput, candidates: readonly Pattern[], policy: AutoApprovalPolicy): ConfidenceAssessment {
    return scoreProposal(input, candidates, policy);
  }
}

export function scoreProposal(
  input: ScoringInput,
  candidates: readonly Pattern[],
  policy: AutoApprovalPolicy,
): ConfidenceAssessment {
  const key = normalizeMerchant(input.merchant);
  const active = candidates.filter((pattern) => pattern.retiredAt === null).sort(byId);
  const exact = active.filter((pattern) => pattern.merchantKey === key);
  if (key !== '' && exact.length > 0) return scoreExactMatch(key, input, exact, policy);

  const similar = active
    .map((pattern) => ({ pattern, similarity: merchantSimilarity(key, pattern.merchantKey) }))
    .sort(
      (a, b) => b.similarity - a.similarity || b.pattern.approvals - a.pattern.approvals || byId(a.pattern, b.pattern),
    );
  const closest = similar[0];
  if (key === '' || !closest || closest.similarity < SIMILAR_NAME_THRESHOLD) {
    const reasons = [`unknown merchant: no pattern for "${key}"`];
    if (closest) {
      reasons.push(
        `closest pattern "${closest.pattern.merchantKey}" is not similar enough (similarity ${closest.similarity.toFixed(2)})`,
      );
    }
    return assessment(key, 0, reasons, null);
  }
  return scoreSimilarName(
    key,
    input,
    similar.filter((candidate) => candidate.similarity >= SIMILAR_NAME_THRESHOLD),
  );
}

function scoreExactMatch(
  key: string,
  input: ScoringInput,
  exact: Pattern[],
  policy: AutoApprovalPolicy,
): ConfidenceAssessment {
  const reasons = [`exact merchant match: ${key}`];
  const agreeing = exact.filter((pattern) => agrees(pattern, input));
  const others = exact.filter((pattern) => !agrees(pattern, input));

  if (agreeing.length === 0) {
    const sameAccount = exact.filter((pattern) => pattern.accountCode === input.accountCode).sort(byApprovalsDesc)[0];
    if (sameAccount) {
      reasons.push(
        `VAT rate ${input.vatRate}% contradicts the pattern's ${sameAccount.vatRate}% for account ${sameAccount.accountCode} (${plural(sameAccount.approvals, 'approval')})`,
      );
      return assessment(key, BANDS.vatContradicts, reasons, sameAccount.id);
    }
    const dominant = [...exact].sort(byApprovalsDesc)[0];
    reasons.push(
      `account code ${input.accountCode} contradicts the pattern's ${dominant.accountCode} (VAT ${dominant.vatRate}%, ${plural(dominant.approvals, 'approval')})`,
    );
    return assessment(key, BANDS.accountContradicts, reasons, dominant.id);
  }

  const best = [...agreeing].sort(byApprovalsDesc)[0];
  const agreeingApprovals = sum(agreeing.map((pattern) => pattern.approvals));
  let score: number;
  if (others.length > 0) {
    // Every pattern weighs its approvals plus one for existing at all (an accountant's rule has 0).
    const weight = (patterns: Pattern[]) => sum(patterns.map((pattern) => pattern.approvals + 1));
    const share = weight(agreeing) / (weight(agreeing) + weight(others));
    score = BANDS.ambiguousBase + BANDS.ambiguousGain * share;
    const combinations = [...agreeing, ...others].map(describe);
    reasons.push(
      `merchant history maps to ${combinations.length} account/VAT combinations (${combinations.join('; ')}): never auto-approved`,
      `${agreeingApprovals} of ${plural(agreeingApprovals + sum(others.map((p) => p.approvals)), 'approval')} agree with this account and VAT rate`,
    );
  } else if (agreeing.some((pattern) => pattern.verified)) {
    score = BANDS.verifiedBase + BANDS.verifiedGain * growth(agreeingApprovals);
    reasons.push(`account and VAT agree with ${plural(agreeingApprovals, 'approval')}`);
  } else {
    score = BANDS.unverifiedBase + BANDS.unverifiedGain * growth(agreeingApprovals);
    reasons.push(
      `account and VAT agree with ${plural(agreeingApprovals, 'approval')}`,
      'the pattern is not verified yet: a reviewer must confirm it before it auto-approves',
    );
  }
  score = applyAmountCheck(input, agreeing, score, reasons);
  score = checkLearntLinks(input, agreeing, score, reasons);
  if (roundScore(score) >= minScoreOf('auto_approve')) {
    score = applyHolds(input, agreeing, policy, score, reasons);
  }
  return assessment(key, score, reasons, best.id);
}

function scoreSimilarName(
  key: string,
  input: ScoringInput,
  similar: { pattern: Pattern; similarity: number }[],
): ConfidenceAssessment {
  const closest = similar[0];
  const reasons = [
    `similar merchant name: "${key}" resembles "${closest.pattern.merchantKey}" (similarity ${closest.similarity.toFixed(2)}); a similar name is never auto-approved`,
  ];
  const agreeing = similar.filter(({ pattern }) => agrees(pattern, input));
  if (agreeing.length === 0) {
    reasons.push(`account and VAT differ from the similar merchant's pattern (${describe(closest.pattern)})`);
    return assessment(key, BANDS.similarContradicts, reasons, closest.pattern.id);
  }
  const best = agreeing[0];
  const nameCloseness = (best.similarity - SIMILAR_NAME_THRESHOLD) / (1 - SIMILAR_NAME_THRESHOLD);
  let score =
    BANDS.similarBase +
    BANDS.similarNameGain * Math.min(1, nameCloseness) +
    BANDS.similarApprovalGain * growth(best.pattern.approvals);
  reasons.push(
    `account and VAT agree with ${plural(best.pattern.approvals, 'approval')} of "${best.pattern.merchantKey}"`,
  );
  score = applyAmountCheck(
    input,
    agreeing.map(({ pattern }) => pattern),
    score,
    reasons,
  );
  return assessment(key, score, reasons, best.pattern.id);
}

/**
 * Caps the score when the amount is far from everything every agreeing pattern has seen (one
 * pattern that finds it usual is enough), and says so.
 */
function applyAmountCheck(input: ScoringInput, agreeing: Pattern[], score: number, reasons: string[]): number {
  if (agreeing.some((pattern) => !isAmountOutlier(pattern.amountStats, input.amount))) return score;
  const stats = [...agreeing].sort(byApprovalsDesc)[0].amountStats;
  const range =
    stats.min !== stats.max
      ? `the usual range ${formatMoney(stats.min ?? 0)}–${formatMoney(stats.max ?? 0)}`
      : stats.count === 1
        ? `the only amount seen, ${formatMoney(stats.min ?? 0)}`
        : `the amount seen each time, ${formatMoney(stats.min ?? 0)}`;
  const rule =
    stats.count < MIN_OBSERVATIONS_FOR_SPREAD
      ? `more than ${FAR_FACTOR} times off`
      : `mean ${formatMoney(Math.round(stats.mean))}`;
  reasons.push(
    `amount ${formatMoney(input.amount)} is far outside ${range} (${rule}, ${plural(stats.count, 'observation')}): never auto-approved`,
  );
  return Math.min(score, BANDS.amountOutlierCap);
}

/**
 * The VAT treatment and the supplier the agreeing patterns learnt: when no agreeing pattern has the
 * proposal's, each difference adds its reason (naming the pattern with the most approvals) and caps
 * the score in the review-recommended band.
 */
function checkLearntLinks(input: ScoringInput, agreeing: Pattern[], score: number, reasons: string[]): number {
  const problems = [treatmentProblem(input, agreeing), supplierProblem(input, agreeing)].filter(
    (problem): problem is string => problem !== null,
  );
  reasons.push(...problems.map((problem) => `${problem}: a person must approve it`));
  return problems.length > 0 ? Math.min(score, BANDS.holdCap) : score;
}

function treatmentProblem(input: ScoringInput, agreeing: Pattern[]): string | null {
  const treatment = input.vatTreatment;
  if (treatment === undefined || agreeing.some((pattern) => learntTreatment(pattern) === treatment)) return null;
  const pattern = [...agreeing].sort(byApprovalsDesc)[0];
  const approvals = plural(pattern.approvals, 'approval');
  return pattern.vatTreatment === null
    ? `VAT treatment ${treatment} has not been shown by the merchant's approvals (its treatment is not known, so domestic is assumed; ${approvals})`
    : `VAT treatment ${treatment} differs from the merchant's ${pattern.vatTreatment} (${approvals})`;
}

/** A pattern that knows no treatment was learnt when every booking was domestic. */
function learntTreatment(pattern: Pattern): VatTreatment {
  return pattern.vatTreatment ?? 'domestic';
}

function supplierProblem(input: ScoringInput, agreeing: Pattern[]): string | null {
  const organizationNumber = input.supplier?.organizationNumber;
  if (organizationNumber === undefined) return null;
  if (agreeing.some((pattern) => pattern.supplierOrganizationNumber === organizationNumber)) return null;
  const known = [...agreeing]
    .sort(byApprovalsDesc)
    .find((pattern) => pattern.supplierOrganizationNumber !== null)?.supplierOrganizationNumber;
  return known === undefined
    ? `supplier ${organizationNumber} is not known for the merchant: none of its approvals was a supplier invoice`
    : `supplier ${organizationNumber} differs from the merchant's ${known}`;
}

/**
 * What keeps a score that would auto-approve from doing so: the company's limit, and separation
 * of duties. Each hold adds its reason and caps the score in the review-recommended band.
 */
function applyHolds(
  input: ScoringInput,
  agreeing: Pattern[],
  policy: AutoApprovalPolicy,
  score: number,
  reasons: string[],
): number {
  const holds = [
    limitHold(input, policy),
    separationOfDutiesHold(input.submittedBy, agreeing),
    linesHold(input, agreeing),
  ].filter((hold): hold is string => hold !== null);
  reasons.push(...holds);
  return holds.length > 0 ? Math.min(score, BANDS.holdCap) : score;
}

/**
 * A proposal of several lines auto-approves only when every line's account and VAT rate agree with
 * what the merchant's approvals have shown (an agreeing pattern's account and rate).
 */
function linesHold(input: ScoringInput, agreeing: Pattern[]): string | null {
  const lines = input.lines ?? [];
  if (lines.length <= 1) return null;
  const strange = lines.findIndex(
    (line) => !agreeing.some((p) => p.accountCode === line.accountCode && sameVatRate(p.vatRate, line.vatRate)),
  );
  if (strange < 0) return null;
  const line = lines[strange];
  return (
    `line ${strange + 1} (account ${line.accountCode}, VAT ${line.vatRate}%) is not what the merchant's approvals ` +
    `show (${agreeing.map(describe).join('; ')}): a reviewer checks how the purchase is split`
  );
}

function limitHold(input: ScoringInput, policy: AutoApprovalPolicy): string | null {
  const limit = policy.autoApproveMaxAmount;
  if (limit === null) return null;
  const amountNok = input.currency === BOOK_CURRENCY ? input.amount : (input.amountNok ?? null);
  if (amountNok === null) {
    return (
      `the amount is in ${input.currency} without an amount in ${BOOK_CURRENCY}, so it cannot be held against the ` +
      `auto-approval limit of ${BOOK_CURRENCY} ${formatMoney(limit)}: a person must approve it`
    );
  }
  if (amountNok <= limit) return null;
  return (
    `amount ${BOOK_CURRENCY} ${formatMoney(amountNok)} is above the company's auto-approval limit of ` +
    `${BOOK_CURRENCY} ${formatMoney(limit)}: a person must approve it`
  );
}

/**
 * Separation of duties: some verified agreeing pattern must be neither written nor last changed by
 * the submitter, and confirmed by someone else. The reason names what failed for the pattern with
 * the most approvals.
 */
function separationOfDutiesHold(submitter: string, agreeing: Pattern[]): string | null {
  const verified = agreeing.filter((pattern) => pattern.verified).sort(byApprovalsDesc);
  const problems = verified.map((pattern) => separationProblem(pattern, submitter));
  if (problems.some((problem) => problem === null)) return null;
  return `separation of duties: ${problems[0]}, so a second person must approve it`;
}

function separationProblem(pattern: Pattern, submitter: string): string | null {
  const mine = (actor: string | null) => actor !== null && sameActor(actor, submitter);
  if (mine(pattern.writtenBy)) return `${submitter} wrote the pattern and submitted this proposal`;
  if (mine(pattern.lastChangedBy)) return `${submitter} last changed the pattern and submitted this proposal`;
  if (pattern.confirmedBy.some((actor) => !mine(actor))) return null;
  return pattern.confirmedBy.length === 0
    ? 'no one is recorded as having confirmed the pattern as it stands'
    : `only ${submitter}, who submitted this proposal, has confirmed the pattern`;
}

function agrees(pattern: Pattern, input: ScoringInput): boolean {
  return pattern.accountCode === input.accountCode && sameVatRate(pattern.vatRate, input.vatRate);
}

function assessment(
  merchantKey: string,
  raw: number,
  reasons: string[],
  patternId: string | null,
): ConfidenceAssessment {
  const score = roundScore(raw);
  return { score, route: routeFor(score), reasons, merchantKey, patternId };
}

/** Clamped to [0, 1] and rounded half-up to 2 decimals; the epsilon keeps 0.945 from becoming 0.94. */
export function roundScore(raw: number): number {
  const clamped = Math.min(1, Math.max(0, raw));
  return Math.round((clamped + Number.EPSILON) * 100) / 100;
}

/** 0 for no approvals, approaching 1 with many; strictly increasing. */
function growth(approvals: number): number {
  return 1 - 1 / (Math.max(0, approvals) + 1);
}

function describe(pattern: Pattern): string {
  return `account ${pattern.accountCode}, VAT ${pattern.vatRate}%`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function byId(a: Pattern, b: Pattern): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function byApprovalsDesc(a: Pattern, b: Pattern): number {
  return b.approvals - a.approvals || byId(a, b);
}

/** Exposed for documentation and tests: the engine never returns ≥ this for a similar name. */
export const SIMILAR_NAME_MAX_SCORE = BANDS.similarBase + BANDS.similarNameGain + BANDS.similarApprovalGain;
