import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorator';
import { Draining } from '../platform/shutdown';

class HealthDto {
  status!: 'ok' | 'unavailable';
  checks?: { database?: 'up' | 'down'; shutdown?: 'draining' };
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
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers and the service is not shutting down' })
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
