import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CHANNELS, ROLES, type EmployeeMapping } from '@app/domain';

export class ExternalIdentityDto {
  @ApiProperty({ enum: CHANNELS, example: 'slack' })
  @IsIn(CHANNELS)
  channel!: string;

  @ApiProperty({ example: 'U0123ABCD' })
  @IsString()
  externalId!: string;
}

export class PutEmployeeDto {
  @ApiProperty({ example: 'ola@demo.no' })
  @IsString()
  email!: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: string;

  @ApiProperty({ type: [ExternalIdentityDto] })
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => ExternalIdentityDto)
  externalIdentities!: ExternalIdentityDto[];

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: "the employee's id at the provider (see GET /context employees)",
  })
  @IsOptional()
  @IsString()
  providerEmployeeId?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      "the provider's department (see GET /context departments) the employee's proposals are posted on when they name none and an account requires one",
  })
  @IsOptional()
  @IsString()
  defaultDepartmentId?: string | null;
}

export class EmployeeDto {
  @ApiProperty({ example: 'u-ola' }) userId!: string;
  @ApiProperty({ example: 'ola@demo.no' }) email!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ type: [ExternalIdentityDto] }) externalIdentities!: ExternalIdentityDto[];
  @ApiProperty({ nullable: true, type: String }) providerEmployeeId!: string | null;
  @ApiProperty({ nullable: true, type: String }) defaultDepartmentId!: string | null;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export function toEmployeeDto(mapping: EmployeeMapping): EmployeeDto {
  return {
    userId: mapping.userId,
    email: mapping.email,
    role: mapping.role,
    externalIdentities: mapping.externalIdentities.map((i) => ({ channel: i.channel, externalId: i.externalId })),
    providerEmployeeId: mapping.providerEmployeeId,
    defaultDepartmentId: mapping.defaultDepartmentId,
    createdAt: mapping.createdAt.toISOString(),
    updatedAt: mapping.updatedAt.toISOString(),
  };
}
