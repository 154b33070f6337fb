import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidationFailed, type FieldError } from '@app/domain';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: error.constraints?.whitelistValidation === message ? 'is not an allowed field' : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Strict validation for every body and query: unknown fields are refused, each problem listed. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      const detail = fieldErrors.map((e) => `${e.field} ${e.message}`).join('; ') || 'the request is not valid';
      return new ValidationFailed(detail, fieldErrors);
    },
  });
}
