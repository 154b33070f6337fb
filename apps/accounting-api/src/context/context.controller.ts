import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { type CompanyContext, type Identity } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';
import { CompanyContextService } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';

class AccountDto {
  @ApiProperty({ example: '6540' }) code!: string;
  @ApiProperty({ example: 'Inventar' }) name!: string;
  @ApiPropertyOptional({ description: "the account's default VAT type id at the provider" }) vatTypeId?: string;
}

class DepartmentDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) number!: string | null;
}

class VatTypeDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: "the provider's code: Tripletex's VAT number, Fiken's type (HIGH…)" }) code!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: '25', description: 'percentage as a decimal string' }) ratePercent!: string;
}

class ProviderEmployeeDto {
  @ApiProperty() id!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
  @ApiProperty({ nullable: true, type: String }) email!: string | null;
}

class ContextDto {
  @ApiProperty({ enum: PROVIDER_KINDS }) provider!: string;
  @ApiProperty({ type: [AccountDto] }) accounts!: AccountDto[];
  @ApiProperty({ type: [DepartmentDto] }) departments!: DepartmentDto[];
  @ApiProperty({ type: [VatTypeDto] }) vatTypes!: VatTypeDto[];
  @ApiPropertyOptional({ type: [ProviderEmployeeDto], description: 'only for callers holding the config permission' })
  employees?: ProviderEmployeeDto[];
  @ApiProperty({ example: '2026-11-20T07:00:00.000Z' }) fetchedAt!: string;
}

function toDto(context: CompanyContext, identity: Identity): ContextDto {
  return {
    provider: context.provider,
    accounts: context.accounts.map((a) => ({
      code: a.code,
      name: a.name,
      ...(a.vatTypeId ? { vatTypeId: a.vatTypeId } : {}),
    })),
    departments: context.departments.map((d) => ({ id: d.id, name: d.name, number: d.number })),
    vatTypes: context.vatTypes.map((v) => ({ id: v.id, code: v.code, name: v.name, ratePercent: v.ratePercent })),
    // The provider's employee list (names, emails) is for the admins who keep the employee mapping.
    ...(identity.permissions.includes('config')
      ? {
          employees: context.employees.map((e) => ({
            id: e.id,
            firstName: e.firstName,
            lastName: e.lastName,
            email: e.email,
          })),
        }
      : {}),
    fetchedAt: context.fetchedAt.toISOString(),
  };
}

@ApiTags('context')
@Controller('v1')
export class ContextController {
  constructor(private readonly context: CompanyContextService) {}

  @Get('context')
  @Access('query', 'employee')
  @ApiOperation({
    summary: "The company's cached chart: accounts, departments, VAT types (and, for admins, the provider's employees)",
  })
  @ApiOkResponse({ type: ContextDto })
  @ApiConflictResponse({ description: 'provider_not_connected', type: ProblemDto })
  async get(@CurrentIdentity() identity: Identity): Promise<ContextDto> {
    return toDto(await this.context.current(identity.company), identity);
  }

  @Post('config/context/refresh')
  @HttpCode(200)
  @Access('config', 'admin')
  @ApiOperation({ summary: 'Fetch the chart again from the provider' })
  @ApiOkResponse({ type: ContextDto })
  @ApiConflictResponse({ description: 'provider_not_connected', type: ProblemDto })
  async refresh(@CurrentIdentity() identity: Identity): Promise<ContextDto> {
    return toDto(await this.context.refresh(identity.company), identity);
  }
}
