import type { Pattern } from '@app/domain';
import { amountsJson } from '../events/event.mapper';
import type { PatternDto } from './pattern.dto';

export function patternJson(pattern: Pattern): PatternDto {
  return {
    id: pattern.id,
    merchantName: pattern.merchantName,
    merchantKey: pattern.merchantKey,
    accountCode: pattern.accountCode,
    vatRate: pattern.vatRate,
    approvals: pattern.approvals,
    verified: pattern.verified,
    writtenBy: pattern.writtenBy,
    lastChangedBy: pattern.lastChangedBy,
    confirmedBy: [...pattern.confirmedBy],
    amounts: amountsJson(pattern.amountStats),
    version: pattern.version,
    createdAt: pattern.createdAt.toISOString(),
    updatedAt: pattern.updatedAt.toISOString(),
    retiredAt: pattern.retiredAt ? pattern.retiredAt.toISOString() : null,
  };
}
