import { FieldError, ValidationFailed } from '../errors/domain-error';

/** Throws a ValidationFailed naming one field. The building block of every value parser. */
export function invalidField(field: string, message: string): never {
  throw new ValidationFailed(`${field} ${message}`, [{ field, message: `${field} ${message}` }]);
}

/**
 * Collects the field errors of several parsers so that a request reports every bad field at once
 * instead of the first one.
 */
export class FieldErrorCollector {
  private readonly errors: FieldError[] = [];

  /** Runs `parse`; a ValidationFailed is recorded and `undefined` returned, anything else rethrown. */
  check<T>(parse: () => T): T | undefined {
    try {
      return parse();
    } catch (error) {
      if (error instanceof ValidationFailed) {
        this.errors.push(...(error.fieldErrors ?? []));
        return undefined;
      }
      throw error;
    }
  }

  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  get hasErrors(): boolean {
    return this.errors.length > 0;
  }

  /** Throws one ValidationFailed listing every collected error, if there is any. */
  throwIfAny(summary = 'validation failed'): void {
    if (this.errors.length === 0) return;
    const detail =
      this.errors.length === 1 ? this.errors[0].message : `${summary}: ${this.errors.length} fields are invalid`;
    throw new ValidationFailed(detail, [...this.errors]);
  }
}
