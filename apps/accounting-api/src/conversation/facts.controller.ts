import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { CHANNELS, type Identity } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';
import { EmployeeDirectory } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { EmployeeDto, toEmployeeDto } from '../employees/employee.dto';

class FactsQuery {
  @ApiPropertyOptional({ enum: CHANNELS })
  @IsOptional()
  @IsString()
  channel?: string;

  @ApiPropertyOptional({ example: 'U0123ABCD' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  externalId?: string;

  @ApiPropertyOptional({ example: 'ola@demo.no' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;
}

class CompanyRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

class FactsDto extends EmployeeDto {
  @ApiProperty({ type: CompanyRefDto }) company!: CompanyRefDto;
  @ApiProperty({ enum: PROVIDER_KINDS, nullable: true, description: "the company's connected provider" }) provider!:
    string | null;
}

/** Level 1's identity resolution: the gateway asks who a chat user (or sender) is. */
@ApiTags('conversation')
@Controller('v1/conversation')
export class FactsController {
  constructor(private readonly directory: EmployeeDirectory) {}

  @Get('facts')
  @Access('facts', 'employee')
  @ApiOperation({
    summary: 'Resolve an external identity: ?channel=slack&externalId=U123, or ?email= (exactly one form)',
  })
  @ApiOkResponse({ type: FactsDto })
  @ApiBadRequestResponse({
    description: 'validation_failed: both forms, neither, or an unknown channel',
    type: ProblemDto,
  })
  @ApiNotFoundResponse({ description: 'not_found: nobody of the company is mapped to it', type: ProblemDto })
  async facts(@CurrentIdentity() identity: Identity, @Query() query: FactsQuery): Promise<FactsDto> {
    const facts = await this.directory.facts(identity.company, query);
    return { ...toEmployeeDto(facts.employee), company: facts.company, provider: facts.provider };
  }
}
