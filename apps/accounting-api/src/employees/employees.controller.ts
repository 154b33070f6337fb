import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { Response } from 'express';
import type { Identity } from '@app/domain';
import { EmployeeDirectory } from '@app/application';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { EmployeeDto, PutEmployeeDto, toEmployeeDto } from './employee.dto';

class ListEmployeesQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  cursor?: string;
}

class EmployeePageDto {
  @ApiProperty({ type: [EmployeeDto] }) items!: EmployeeDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

/** The employee mapping (spec §2.6), kept by the company's admins. */
@ApiTags('employees')
@Controller('v1/config/employees')
export class EmployeesController {
  constructor(private readonly directory: EmployeeDirectory) {}

  @Get()
  @Access('config', 'admin')
  @ApiOperation({ summary: "The company's employee mappings, by userId" })
  @ApiOkResponse({ type: EmployeePageDto })
  async list(@CurrentIdentity() identity: Identity, @Query() query: ListEmployeesQuery): Promise<EmployeePageDto> {
    const page = await this.directory.list(identity.company, query.limit ?? 50, query.cursor);
    return { items: page.items.map(toEmployeeDto), nextCursor: page.nextCursor };
  }

  @Get(':userId')
  @Access('config', 'admin')
  @ApiOperation({ summary: "One user's mapping" })
  @ApiOkResponse({ type: EmployeeDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  async get(@CurrentIdentity() identity: Identity, @Param('userId') userId: string): Promise<EmployeeDto> {
    return toEmployeeDto(await this.directory.get(identity.company, userId));
  }

  @Put(':userId')
  @Access('config', 'admin')
  @ApiOperation({
    summary: "Create or replace a user's mapping (email and external identities unique within the company)",
  })
  @ApiOkResponse({ type: EmployeeDto, description: 'replaced' })
  @ApiCreatedResponse({ type: EmployeeDto, description: 'created' })
  async put(
    @CurrentIdentity() identity: Identity,
    @Param('userId') userId: string,
    @Body() body: PutEmployeeDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<EmployeeDto> {
    const { mapping, created } = await this.directory.put(identity.company, userId, body);
    response.status(created ? 201 : 200);
    return toEmployeeDto(mapping);
  }

  @Delete(':userId')
  @HttpCode(204)
  @Access('config', 'admin')
  @ApiOperation({ summary: "Remove a user's mapping" })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ProblemDto })
  async delete(@CurrentIdentity() identity: Identity, @Param('userId') userId: string): Promise<void> {
    await this.directory.delete(identity.company, userId);
  }
}
