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
import {
  ConfirmSuggestionsHandler,
  CreatePatternHandler,
  EditPatternHandler,
  ImportBookingHistoryHandler,
  ListPatternsHandler,
  ListSuggestionsHandler,
  RetirePatternHandler,
} from '@app/application';
import type { Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { PageQueryDto } from '../events/event.dto';
import {
  ConfirmedSuggestionsDto,
  ConfirmSuggestionsDto,
  CreatePatternDto,
  EditPatternDto,
  ListPatternsQueryDto,
  PatternDto,
  PatternPageDto,
  RefreshSuggestionsDto,
  SuggestionPageDto,
} from './pattern.dto';
import { historyImportJson, patternJson } from './pattern.mapper';

@ApiTags('patterns')
@Controller('v1/patterns')
export class PatternsController {
  constructor(
    private readonly listPatterns: ListPatternsHandler,
    private readonly createPattern: CreatePatternHandler,
    private readonly editPattern: EditPatternHandler,
    private readonly retirePattern: RetirePatternHandler,
    private readonly listSuggestions: ListSuggestionsHandler,
    private readonly confirmSuggestions: ConfirmSuggestionsHandler,
    private readonly importHistory: ImportBookingHistoryHandler,
  ) {}

  @Get('suggestions')
  @Access('rules', 'accountant')
  @ApiOperation({
    summary:
      "Suggestions from the company's booking history that no one has confirmed yet, oldest first, and the state of the history import",
    description:
      'A suggestion is an unverified pattern: it scores in the review-recommended band (0.75–0.85) until an accountant confirms it.',
  })
  @ApiOkResponse({ type: SuggestionPageDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  async suggestions(@CurrentIdentity() identity: Identity, @Query() query: PageQueryDto): Promise<SuggestionPageDto> {
    const page = await this.listSuggestions.execute({ caller: identity, limit: query.limit, cursor: query.cursor });
    return {
      items: page.items.map(patternJson),
      nextCursor: page.nextCursor,
      import: page.import ? historyImportJson(page.import) : null,
    };
  }

  @Post('suggestions/confirm')
  @HttpCode(HttpStatus.OK)
  @Access('rules', 'accountant')
  @ApiOperation({
    summary:
      'Confirm suggestions, one or many: they become verified patterns with the history’s amounts, the caller as confirmer (audited as PatternSaved, cause suggestion_confirmed)',
  })
  @ApiOkResponse({ type: ConfirmedSuggestionsDto })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'not_found: an id names no pattern of the company' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'invalid_transition: an id names a pattern that is not a pending suggestion; nothing is confirmed',
  })
  async confirm(
    @CurrentIdentity() identity: Identity,
    @Body() body: ConfirmSuggestionsDto,
  ): Promise<ConfirmedSuggestionsDto> {
    const confirmed = await this.confirmSuggestions.execute({ caller: identity, ids: body.ids });
    return { items: confirmed.map(patternJson) };
  }

  @Post('suggestions/refresh')
  @HttpCode(HttpStatus.OK)
  @Access('rules', 'accountant')
  @ApiOperation({
    summary:
      "Read the company's last 12 months of bookings from its provider (resuming an interrupted read) and refresh the suggestions",
    description:
      'Answers when the read is done. Suggestions people already decided on (confirmed, learnt from approvals, written by hand) are left as they are.',
  })
  @ApiOkResponse({ type: RefreshSuggestionsDto })
  @ApiConflictResponse({ type: ProblemDto, description: 'provider_not_connected' })
  async refresh(@CurrentIdentity() identity: Identity): Promise<RefreshSuggestionsDto> {
    const result = await this.importHistory.execute({
      companyId: identity.company,
      actor: identity.actor,
      channel: identity.channel,
    });
    return { import: historyImportJson(result.import), suggested: result.suggested };
  }

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
