import { Body, Controller, Get, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Access } from '../../apps/accounting-api/src/auth/access.decorator';

class EchoDto {
  @IsString()
  @Matches(/^\d+(\.\d{1,2})?$/, { message: 'must be a decimal string with at most 2 fraction digits' })
  amount!: string;

  @IsOptional()
  @IsString()
  @MaxLength(10)
  note?: string;
}

/** Test-only routes that exercise the guard's permission and role checks and the error filter. */
@Controller('v1/probe')
export class ProbeController {
  constructor(private readonly dataSource: DataSource) {}

  /** A statement the database refuses, with a bound value that must never reach a log line. */
  @Get('db-error')
  @Access(null, 'employee')
  async dbError() {
    return this.dataSource.query('SELECT $1::text AS merchant, 1 / 0 AS amount', ['Kiwi Majorstuen card 4711']);
  }

  @Get('config')
  @Access('config', 'admin')
  config() {
    return { ok: true };
  }

  @Post('approve')
  @Access('solve', 'accountant')
  approve() {
    return { ok: true };
  }

  @Get('monitor')
  @Access('monitor', 'manager')
  monitor() {
    return { ok: true };
  }

  @Post('echo')
  @Access('solve', 'employee')
  echo(@Body() body: EchoDto) {
    return body;
  }

  @Get('boom')
  @Access(null, 'employee')
  boom(): never {
    throw new Error('database password=hunter2 leaked');
  }

  @Get('undeclared')
  undeclared() {
    return { ok: true };
  }
}
