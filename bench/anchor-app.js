'use strict';
/**
 * The benchmarks' anchors (bench/anchors.js): a bare NestJS app on Express with a minimal RS256
 * guard, nothing else — no logging, metrics, rate limit or company check.
 *
 * - GET /v1/whoami answers the verified claims (the floor of an authenticated read through Nest);
 * - POST /v1/keyed stores (company, Idempotency-Key) with one `INSERT … ON CONFLICT DO NOTHING`
 *   (the floor of a durable keyed write through Nest on this machine).
 *
 * Env: PORT, ANCHOR_PUBLIC_KEY (PEM), DATABASE_URL (for /v1/keyed).
 */
require('reflect-metadata');
const { Controller, Get, Post, Req, Module, UseGuards, Injectable, UnauthorizedException } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const jwt = require('jsonwebtoken');
const { Pool } = require('pg');

const publicKey = process.env.ANCHOR_PUBLIC_KEY;
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

class Rs256Guard {
  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    const header = request.headers.authorization ?? '';
    try {
      request.claims = jwt.verify(header.slice('Bearer '.length), publicKey, { algorithms: ['RS256'] });
      return true;
    } catch {
      throw new UnauthorizedException();
    }
  }
}
Injectable()(Rs256Guard);

class AnchorController {
  whoami(request) {
    return { actor: request.claims.sub, company: request.claims.company_id };
  }

  async keyed(request) {
    await pool.query('INSERT INTO anchor_keys (company, key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      request.claims.company_id,
      request.headers['idempotency-key'],
    ]);
    return { stored: true };
  }
}
for (const [method, decorator] of [
  ['whoami', Get('whoami')],
  ['keyed', Post('keyed')],
]) {
  Req()(AnchorController.prototype, method, 0);
  Reflect.decorate(
    [decorator],
    AnchorController.prototype,
    method,
    Object.getOwnPropertyDescriptor(AnchorController.prototype, method),
  );
}
UseGuards(Rs256Guard)(AnchorController);
Controller('v1')(AnchorController);

class AnchorModule {}
Module({ controllers: [AnchorController], providers: [Rs256Guard] })(AnchorModule);

NestFactory.create(AnchorModule, { logger: false })
  .then((app) => app.listen(Number(process.env.PORT ?? 3905), '127.0.0.1'))
  .then(() => process.stdout.write('listening\n'));
process.once('SIGTERM', () => pool.end().finally(() => process.exit(0)));
