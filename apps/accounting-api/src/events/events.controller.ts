import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListEventsHandler } from '@app/application';
import type { Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { EventPageDto, ListEventsQueryDto } from './event.dto';
import { eventJson } from './event.mapper';

@ApiTags('events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly listEvents: ListEventsHandler) {}

  @Get()
  @Access('monitor', 'manager')
  @ApiOperation({
    summary: "The company's events, oldest first, keyset-paginated",
    description:
      "`?status=PROPOSED` → the pending proposals' events; `?correlationId=` → one chain's full history; also `type`, `from` (inclusive), `to` (exclusive). All filters combine.",
  })
  @ApiOkResponse({ type: EventPageDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'validation_failed: an unknown or malformed query parameter',
  })
  async list(@CurrentIdentity() identity: Identity, @Query() query: ListEventsQueryDto): Promise<EventPageDto> {
    const page = await this.listEvents.execute({
      caller: identity,
      status: query.status,
      correlationId: query.correlationId,
      type: query.type,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      limit: query.limit,
      cursor: query.cursor,
    });
    return { items: page.items.map(eventJson), nextCursor: page.nextCursor };
  }
}
