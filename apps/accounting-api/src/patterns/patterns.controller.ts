import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CreatePatternHandler, EditPatternHandler, ListPatternsHandler, RetirePatternHandler } from '@app/application';
import type { Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { CreatePatternDto, EditPatternDto, ListPatternsQueryDto, PatternDto, PatternPageDto } from './pattern.dto';
import { patternJson } from './pattern.mapper';

@ApiTags('patterns')
@Controller('v1/patterns')
export class PatternsController {
  constructor(
    private readonly listPatterns: ListPatternsHandler,
    private readonly createPattern: CreatePatternHandler,
    private readonly editPattern: EditPatternHandler,
    private readonly retirePattern: RetirePatternHandler,
  ) {}

  @Get()
  @Access('rules', 'accountant')
  @ApiOperation({
    summary: "The company's merchant patterns, oldest first, keyset-paginated (retired ones on request)",
  })
  @ApiOkResponse({ type: PatternPageDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  async list(@CurrentIdentity() identity: Identity, @Query() query: ListPatternsQueryDto): Promise<PatternPageDto> {
    const page = await this.listPatterns.execute({
      caller: identity,
      merchant: query.merchant,
      includeRetired: query.includeRetired === 'true',
      limit: query.limit,
      cursor: query.cursor,
    });
    return { items: page.items.map(patternJson), nextCursor: page.nextCursor };
  }

  @Post()
  @Access('rules', 'accountant')
  @ApiOperation({ summary: 'Create a pattern (audited as PatternSaved)' })
  @ApiCreatedResponse({ type: PatternDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'invalid_transition: an active pattern with the same merchant, account and VAT rate exists',
  })
  async create(@CurrentIdentity() identity: Identity, @Body() body: CreatePatternDto): Promise<PatternDto> {
    return patternJson(await this.createPattern.execute({ caller: identity, pattern: { ...body } }));
  }

  @Put(':id')
  @Access('rules', 'accountant')
  @ApiOperation({
    summary: 'Edit a pattern: any of merchantName, accountCode, vatRate, verified (audited as PatternSaved)',
  })
  @ApiParam({ name: 'id', description: "the pattern's id" })
  @ApiOkResponse({ type: PatternDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'invalid_transition: retired, changed meanwhile, or it would duplicate another active pattern',
  })
  async edit(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: EditPatternDto,
  ): Promise<PatternDto> {
    return patternJson(await this.editPattern.execute({ caller: identity, patternId: id, changes: { ...body } }));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.OK)
  @Access('rules', 'accountant')
  @ApiOperation({
    summary: 'Retire a pattern (audited as PatternRetired)',
    description:
      'The pattern is kept, with retiredAt set, for the audit trail and is ignored by scoring from now on. Answers 200 with the retired pattern.',
  })
  @ApiParam({ name: 'id', description: "the pattern's id" })
  @ApiOkResponse({ type: PatternDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiConflictResponse({ type: ProblemDto, description: 'invalid_transition: already retired' })
  async retire(@CurrentIdentity() identity: Identity, @Param('id') id: string): Promise<PatternDto> {
    return patternJson(await this.retirePattern.execute({ caller: identity, patternId: id }));
  }
}
