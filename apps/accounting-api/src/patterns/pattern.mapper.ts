import type { HistoryImport, Pattern } from '@app/domain';
import { amountsJson } from '../events/event.mapper';
import type { HistoryImportDto, PatternDto } from './pattern.dto';

export function patternJson(pattern: Pattern): PatternDto {
  return {
    id: pattern.id,
    merchantName: pattern.merchantName,
    merchantKey: pattern.merchantKey,
    accountCode: pattern.accountCode,
    vatRate: pattern.vatRate,
    vatTreatment: pattern.vatTreatment,
    supplierOrganizationNumber: pattern.supplierOrganizationNumber,
    approvals: pattern.approvals,
    verified: pattern.verified,
    writtenBy: pattern.writtenBy,
    lastChangedBy: pattern.lastChangedBy,
    confirmedBy: [...pattern.confirmedBy],
    amounts: amountsJson(pattern.amountStats),
    history: pattern.history ? { ...pattern.history } : null,
    version: pattern.version,
    createdAt: pattern.createdAt.toISOString(),
    updatedAt: pattern.updatedAt.toISOString(),
    retiredAt: pattern.retiredAt ? pattern.retiredAt.toISOString() : null,
  };
}

export function historyImportJson(state: HistoryImport): HistoryImportDto {
  return {
    provider: state.provider,
    periodFrom: state.periodFrom,
    periodTo: state.periodTo,
    status: state.status,
    bookingsRead: state.bookingsRead,
    pagesRead: state.pagesRead,
    startedBy: state.startedBy,
    startedAt: state.startedAt.toISOString(),
    updatedAt: state.updatedAt.toISOString(),
    finishedAt: state.finishedAt ? state.finishedAt.toISOString() : null,
    error: state.error,
  };
}
