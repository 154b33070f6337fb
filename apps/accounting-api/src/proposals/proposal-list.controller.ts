import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListProposalsHandler } from '@app/application';
import { parseAccountingDate, type Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { ListProposalsQueryDto, ProposalPageDto } from './proposal-list.dto';
import { proposalJson } from './proposal.mapper';

@ApiTags('proposals')
@Controller('v1/proposals')
export class ProposalListController {
  constructor(private readonly listProposals: ListProposalsHandler) {}

  @Get()
  @Access('query', 'employee')
  @ApiOperation({
    summary: "The company's proposals, oldest submission first, keyset-paginated: the review queue",
    description:
      '`?status=PROPOSED` → the proposals waiting for review. Filters `status`, `submittedBy`, `dateFrom` and `dateTo` ' +
      '(accounting dates, inclusive) combine. Each proposal is shown as GET /proposals/{id} shows it. Employees see ' +
      'only their own: without `submittedBy` theirs are listed, naming someone else is 403 permission_denied.',
  })
  @ApiOkResponse({ type: ProposalPageDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'validation_failed: an unknown or malformed query parameter',
  })
  async list(@CurrentIdentity() identity: Identity, @Query() query: ListProposalsQueryDto): Promise<ProposalPageDto> {
    const page = await this.listProposals.execute({
      caller: identity,
      status: query.status,
      submittedBy: query.submittedBy,
      dateFrom: query.dateFrom === undefined ? undefined : parseAccountingDate(query.dateFrom, 'dateFrom'),
      dateTo: query.dateTo === undefined ? undefined : parseAccountingDate(query.dateTo, 'dateTo'),
      limit: query.limit,
      cursor: query.cursor,
    });
    return { items: page.items.map(proposalJson), nextCursor: page.nextCursor };
  }
}
