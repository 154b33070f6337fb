import type { Pattern } from '@app/domain';
import { toNullableNumber } from '../shared/sql';

export const PATTERN_COLUMN_NAMES = [
  'id',
  'company_id',
  'merchant_key',
  'merchant_name',
  'account_code',
  'vat_rate',
  'vat_treatment',
  'supplier_organization_number',
  'approvals',
  'amount_count',
  'amount_mean',
  'amount_m2',
  'amount_min',
  'amount_max',
  'verified',
  'written_by',
  'last_changed_by',
  'confirmed_by',
  'history',
  'version',
  'created_at',
  'updated_at',
  'retired_at',
] as const;

export const PATTERN_SELECT = PATTERN_COLUMN_NAMES.join(', ');

export type PatternRecord = Record<(typeof PATTERN_COLUMN_NAMES)[number], unknown>;

export function patternFromRecord(row: PatternRecord): Pattern {
  return {
    id: row.id as string,
    companyId: row.company_id as string,
    merchantKey: row.merchant_key as string,
    merchantName: row.merchant_name as string,
    accountCode: row.account_code as string,
    vatRate: row.vat_rate as string,
    vatTreatment: (row.vat_treatment as Pattern['vatTreatment']) ?? null,
    supplierOrganizationNumber: (row.supplier_organization_number as string | null) ?? null,
    approvals: row.approvals as number,
    amountStats: {
      count: row.amount_count as number,
      mean: row.amount_mean as number,
      m2: row.amount_m2 as number,
      min: toNullableNumber(row.amount_min),
      max: toNullableNumber(row.amount_max),
    },
    verified: row.verified as boolean,
    writtenBy: row.written_by as string | null,
    lastChangedBy: row.last_changed_by as string | null,
    confirmedBy: row.confirmed_by as string[],
    history: (row.history as Pattern['history']) ?? null,
    version: row.version as number,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    retiredAt: row.retired_at as Date | null,
  };
}

/** Parameters in PATTERN_COLUMN_NAMES order. */
export function patternParameters(p: Pattern): unknown[] {
  return [
    p.id,
    p.companyId,
    p.merchantKey,
    p.merchantName,
    p.accountCode,
    p.vatRate,
    p.vatTreatment,
    p.supplierOrganizationNumber,
    p.approvals,
    p.amountStats.count,
    p.amountStats.mean,
    p.amountStats.m2,
    p.amountStats.min,
    p.amountStats.max,
    p.verified,
    p.writtenBy,
    p.lastChangedBy,
    [...p.confirmedBy],
    p.history === null ? null : JSON.stringify(p.history),
    p.version,
    p.createdAt,
    p.updatedAt,
    p.retiredAt,
  ];
}
