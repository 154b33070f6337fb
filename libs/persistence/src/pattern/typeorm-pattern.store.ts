import type { EntityManager } from 'typeorm';
import {
  ConcurrencyConflict,
  Page,
  Pattern,
  PatternKey,
  PatternListQuery,
  PatternStore,
  parseVatRate,
} from '@app/domain';
import { assertLimit, decodeCursor, toPage } from '../shared/keyset-cursor';
import { conflictOnUniqueViolation, execute, select } from '../shared/sql';
import {
  PATTERN_COLUMN_NAMES,
  PATTERN_SELECT,
  patternFromRecord,
  patternParameters,
  type PatternRecord,
} from './pattern.mapper';

/** The partial unique index that allows one active pattern per (company, key, account, VAT rate). */
const ACTIVE_KEY_INDEX = 'patterns_active_key_key';

/**
 * The PatternStore over `patterns` (pg_trgm for look-alike merchants). Company-scoped throughout;
 * another company's id reads as absent. `save` is optimistic: an insert relies on the primary key
 * and on the partial unique index of active keys, an update is a compare-and-set on `version`;
 * any loser gets ConcurrencyConflict.
 */
export class TypeOrmPatternStore extends PatternStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async findActiveByKey(companyId: string, key: PatternKey): Promise<Pattern | null> {
    const [row] = await select<PatternRecord>(
      this.manager,
      `SELECT ${PATTERN_SELECT} FROM patterns
        WHERE company_id = $1 AND merchant_key = $2 AND account_code = $3 AND vat_rate = $4 AND retired_at IS NULL`,
      [companyId, key.merchantKey, key.accountCode, canonicalVatRate(key.vatRate)],
    );
    return row ? patternFromRecord(row) : null;
  }

  async findById(companyId: string, id: string): Promise<Pattern | null> {
    const [row] = await select<PatternRecord>(
      this.manager,
      `SELECT ${PATTERN_SELECT} FROM patterns WHERE company_id = $1 AND id = $2`,
      [companyId, id],
    );
    return row ? patternFromRecord(row) : null;
  }

  async list(companyId: string, query: PatternListQuery): Promise<Page<Pattern>> {
    assertLimit(query.limit);
    const parameters: unknown[] = [companyId];
    const param = (value: unknown): string => {
      parameters.push(value);
      return `$${parameters.length}`;
    };
    const where = ['company_id = $1'];
    if (!query.includeRetired) where.push('retired_at IS NULL');
    if (query.merchantKey !== undefined) where.push(`merchant_key = ${param(query.merchantKey)}`);
    if (query.pendingSuggestions) where.push('history IS NOT NULL AND NOT verified AND retired_at IS NULL');
    if (query.cursor) {
      const [createdAtMs, id] = decodeCursor(query.cursor, ['number', 'string'] as const);
      where.push(`(created_at, id) > (${param(new Date(createdAtMs))}, ${param(id)})`);
    }
    const rows = await select<PatternRecord>(
      this.manager,
      `SELECT ${PATTERN_SELECT} FROM patterns WHERE ${where.join(' AND ')}
        ORDER BY created_at, id LIMIT ${param(query.limit + 1)}`,
      parameters,
    );
    return toPage(rows, query.limit, patternFromRecord, (row) => [
      (row.created_at as Date).getTime(),
      row.id as string,
    ]);
  }

  async save(pattern: Pattern, expectedVersion: number | null): Promise<void> {
    const parameters = patternParameters(pattern);
    await conflictOnUniqueViolation(
      ['patterns_pkey', ACTIVE_KEY_INDEX],
      () =>
        expectedVersion === null
          ? `pattern ${pattern.id}, or an active pattern for ${pattern.merchantKey} → ${pattern.accountCode} / ${pattern.vatRate}%, already exists`
          : `an active pattern for ${pattern.merchantKey} → ${pattern.accountCode} / ${pattern.vatRate}% already exists`,
      async () => {
        if (expectedVersion === null) {
          await this.manager.query(
            `INSERT INTO patterns (${PATTERN_COLUMN_NAMES.join(', ')})
             VALUES (${PATTERN_COLUMN_NAMES.map((_, i) => `$${i + 1}`).join(', ')})`,
            parameters,
          );
          return;
        }
        const assignments = PATTERN_COLUMN_NAMES.map((column, i) => ({ column, i }))
          .filter(({ column }) => column !== 'id' && column !== 'company_id')
          .map(({ column, i }) => `${column} = $${i + 1}`)
          .join(', ');
        const { affected } = await execute(
          this.manager,
          `UPDATE patterns SET ${assignments} WHERE id = $1 AND company_id = $2 AND version = $${parameters.length + 1}`,
          [...parameters, expectedVersion],
        );
        if (affected !== 1) {
          throw new ConcurrencyConflict(
            `pattern ${pattern.id} changed meanwhile: it is no longer at version ${expectedVersion}`,
          );
        }
      },
    );
  }
}

/** Stored rates are canonical ("25", "11.1"); a caller's "25.00" finds them too. */
function canonicalVatRate(rate: string): string {
  try {
    return parseVatRate(rate);
  } catch {
    return rate;
  }
}
