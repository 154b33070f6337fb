import { Injectable } from '@nestjs/common';
import {
  createPattern,
  DEFAULT_PAGE_LIMIT,
  DomainError,
  editPattern,
  invalidField,
  normalizeMerchant,
  NotFound,
  PatternStore,
  retirePattern,
  type NewPatternInput,
  type Page,
  type Pattern,
  type PatternChange,
} from '@app/domain';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { UnitOfWork, type TransactionalPorts } from '../shared/unit-of-work.port';

export interface ListPatternsQuery {
  readonly caller: Caller;
  /** Only this merchant's patterns (compared by normalised name). */
  readonly merchant?: string;
  readonly includeRetired?: boolean;
  /** 1–200, default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

export interface CreatePatternCommand {
  readonly caller: Caller;
  readonly pattern: NewPatternInput;
}

export interface EditPatternCommand {
  readonly caller: Caller;
  readonly patternId: string;
  /** Any of merchantName, accountCode, vatRate, verified; at least one. */
  readonly changes: NewPatternInput;
}

export interface RetirePatternCommand {
  readonly caller: Caller;
  readonly patternId: string;
}

/** An active pattern with the same merchant, account and VAT rate exists (409). */
export class DuplicatePattern extends DomainError {
  constructor(existing: Pattern) {
    super(
      'invalid_transition',
      `an active pattern for "${existing.merchantKey}" → account ${existing.accountCode}, VAT ${existing.vatRate}% already exists (${existing.id}); edit that one instead`,
    );
  }
}

/** Stores a pattern change and its event together. */
async function store(
  ports: TransactionalPorts,
  change: PatternChange,
  expectedVersion: number | null,
): Promise<Pattern> {
  await ports.patterns.save(change.pattern, expectedVersion);
  await ports.events.append(change.events);
  return change.pattern;
}

/** GET /patterns: the company's patterns, oldest first, keyset-paginated; retired ones only when asked. */
@Injectable()
export class ListPatternsHandler {
  constructor(private readonly patterns: PatternStore) {}

  async execute(query: ListPatternsQuery): Promise<Page<Pattern>> {
    let merchantKey: string | undefined;
    if (query.merchant !== undefined) {
      merchantKey = normalizeMerchant(query.merchant);
      if (merchantKey === '') invalidField('merchant', 'must contain a name, not only punctuation or numbers');
    }
    return this.patterns.list(query.caller.company, {
      merchantKey,
      includeRetired: query.includeRetired ?? false,
      limit: query.limit ?? DEFAULT_PAGE_LIMIT,
      cursor: query.cursor ?? null,
    });
  }
}

/** POST /patterns: an accountant's rule (verified unless said otherwise), audited as PatternSaved. */
@Injectable()
export class CreatePatternHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: CreatePatternCommand): Promise<Pattern> {
    const { caller } = command;
    const created = createPattern(caller.company, command.pattern, originOf(caller), this.ctx);
    return this.unitOfWork.run(async (ports) => {
      const { merchantKey, accountCode, vatRate } = created.pattern;
      const existing = await ports.patterns.findActiveByKey(caller.company, { merchantKey, accountCode, vatRate });
      if (existing) throw new DuplicatePattern(existing);
      return store(ports, created, null);
    });
  }
}

/** PUT /patterns/{id}: changes name, account, VAT rate or verified; approvals and amounts are kept. */
@Injectable()
export class EditPatternHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: EditPatternCommand): Promise<Pattern> {
    const { caller, patternId, changes } = command;
    if (Object.values(changes).every((value) => value === undefined)) {
      invalidField(
        'body',
        'must change at least one of merchantName, accountCode, vatRate, vatTreatment, supplierOrganizationNumber, verified',
      );
    }
    return this.unitOfWork.run(async (ports) => {
      const current = await ports.patterns.findById(caller.company, patternId);
      if (!current) throw new NotFound('pattern', patternId);
      const edited = editPattern(current, changes, originOf(caller), this.ctx);
      const { merchantKey, accountCode, vatRate } = edited.pattern;
      const twin = await ports.patterns.findActiveByKey(caller.company, { merchantKey, accountCode, vatRate });
      if (twin && twin.id !== current.id) throw new DuplicatePattern(twin);
      return store(ports, edited, current.version);
    });
  }
}

/**
 * DELETE /patterns/{id}: retires the pattern — kept for the audit trail with its retiredAt, ignored
 * by scoring from now on — and stores PatternRetired. Retiring a retired pattern is 409.
 */
@Injectable()
export class RetirePatternHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ctx: ApplicationContext,
  ) {}

  execute(command: RetirePatternCommand): Promise<Pattern> {
    const { caller, patternId } = command;
    return this.unitOfWork.run(async (ports) => {
      const current = await ports.patterns.findById(caller.company, patternId);
      if (!current) throw new NotFound('pattern', patternId);
      return store(ports, retirePattern(current, originOf(caller), this.ctx), current.version);
    });
  }
}
