import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorator';
import { Draining } from '../platform/shutdown';

class HealthChecksDto {
  @ApiPropertyOptional({ enum: ['up', 'down'] }) database?: 'up' | 'down';
  @ApiPropertyOptional({ enum: ['draining'], description: 'present while the service shuts down' })
  shutdown?: 'draining';
}

class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status!: 'ok' | 'unavailable';
  @ApiPropertyOptional({ type: HealthChecksDto, description: 'absent from liveness, which checks nothing else' })
  checks?: HealthChecksDto;
}

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly draining: Draining,
  ) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Readiness: the process is up and its database answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto })
  async health(@Res({ passthrough: true }) response: Response): Promise<HealthDto> {
    return this.ready(response);
  }

  @Public()
  @Get('live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDto, description: '`{"status": "ok"}`' })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers and the service is not shutting down' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({
    type: HealthDto,
    description: 'the database does not answer, or the service is shutting down',
  })
  async ready(@Res({ passthrough: true }) response: Response): Promise<HealthDto> {
    if (this.draining.active) {
      response.status(503);
      return { status: 'unavailable', checks: { shutdown: 'draining' } };
    }
    try {
      await this.dataSource.query('SELECT 1');
      return { status: 'ok', checks: { database: 'up' } };
    } catch {
      response.status(503);
      return { status: 'unavailable', checks: { database: 'down' } };
    }
  }
}
