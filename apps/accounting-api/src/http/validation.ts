import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ValidationFailed, type FieldError } from '@app/domain';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: error.constraints?.whitelistValidation === message ? `${field} is not an allowed field` : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * The global pipe: a body that is not a JSON object (an array; JSON's scalars never get past the
 * body parser) is refused as such before its DTO is checked. An absent body counts as `{}`.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const notAnObject = value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value));
    if (metadata.type === 'body' && this.toValidate(metadata) && notAnObject) {
      throw new ValidationFailed('body must be a JSON object', [
        { field: 'body', message: 'body must be a JSON object' },
      ]);
    }
    return super.transform(value, metadata);
  }
}

/** Strict validation for every body and query: unknown fields are refused, each problem listed. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      const detail = fieldErrors.map((e) => e.message).join('; ') || 'the request is not valid';
      return new ValidationFailed(detail, fieldErrors);
    },
  });
}
