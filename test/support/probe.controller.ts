import { Body, Controller, Get, Post } from '@nestjs/common';
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
