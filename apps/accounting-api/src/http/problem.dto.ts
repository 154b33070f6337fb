import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from '@app/domain';

export class FieldErrorDto {
  @ApiProperty({ example: 'amount' }) field!: string;
  @ApiProperty({ example: 'must be a decimal string with at most 2 fraction digits' }) message!: string;
}

/** RFC 9457 problem details, as every error of the API is shaped (docs/api.md §3). */
export class ProblemDto {
  @ApiProperty({ example: 'https://errors.accounting-api.dev/validation_failed' }) type!: string;
  @ApiProperty({ example: 'Request validation failed' }) title!: string;
  @ApiProperty({ type: 'integer', example: 400 }) status!: number;
  @ApiProperty({ enum: ERROR_CODES, example: 'validation_failed' }) code!: string;
  @ApiProperty({ example: 'amount must be a decimal string' }) detail!: string;
  @ApiProperty({ example: '/v1/proposals' }) instance!: string;
  @ApiProperty({ example: '0193a1b2-…' }) requestId!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto] }) errors?: FieldErrorDto[];
  @ApiPropertyOptional({ description: 'for internal_error: the id under which the failure was logged' })
  errorId?: string;
}
