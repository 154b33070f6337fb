import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, urlencoded } from 'express';
import { Logger } from 'nestjs-pino';
import { CompanyRepository, type Clock } from '@app/domain';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { ensureDevKeys } from './auth/dev-keys';
import { requestId, requireJsonBodies } from './http/middleware';
import { createValidationPipe } from './http/validation';
import { mountOpenApi } from './http/openapi';
import { HttpMetrics } from './metrics/http-metrics';
import { DemoConnections } from './sandbox/demo-connections';

export interface CreateAppOptions {
  clock?: Clock;
  /** Buffer Nest's own start-up logs into pino (off in tests to keep output quiet). */
  bufferLogs?: boolean;
}

/**
 * Builds the whole service (not yet listening): dev keys when no gateway JWKS is configured,
 * the database (migrated), the HTTP edge in the order requests meet it.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  if (config.usesDevKeys) ensureDevKeys(config.dataDir);
  const module = AppModule.forRoot({ config, clock: options.clock });
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bodyParser: false,
    abortOnError: false, // let start-up errors reach the caller (main prints them; tests see them)
    bufferLogs: options.bufferLogs ?? true,
    logger: config.logLevel === 'silent' ? false : undefined,
  });
  await configureApp(app, config);
  return app;
}

/**
 * The HTTP edge, in the order a request meets it: request id, metrics, media type, JSON body
 * (size-limited), then Nest's guards (gateway token, rate limit), validation and the problem+json
 * filter. Also the OpenAPI document and first-start seeding. Shared by the service and the tests.
 */
export async function configureApp(app: NestExpressApplication, config: AppConfig): Promise<void> {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(app.get(HttpMetrics).middleware);
  app.use(requireJsonBodies);
  app.use(json({ limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'] }));
  // The Tripletex token form posts to the OAuth callback as a form (the only non-JSON body).
  app.use('/v1/oauth', urlencoded({ extended: false, limit: '16kb' }));
  // The web console's forms (a reason, a correction, settings): small urlencoded bodies.
  app.use('/console', urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  mountOpenApi(app);
  if (config.seedDemoCompany) {
    const created = await app.get(CompanyRepository).create({ id: 'demo', name: 'Demo AS' });
    if (created) app.get(Logger).log('created the demo company "demo"');
    // Sandbox mode: `demo` on the Tripletex sandbox, `demo-fiken` on the Fiken sandbox.
    if (config.providerSandbox) await app.get(DemoConnections).seed();
  }
}
