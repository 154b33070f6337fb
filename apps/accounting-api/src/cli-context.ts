import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';

/**
 * Runs one CLI command inside the application: the composition root as the CLI (`role: 'cli'`) —
 * the service's adapters and use cases, without the HTTP edge and without any background loop (no
 * executor, no daily check schedule or catch-up, no outbox dispatcher, no sealer), so the command
 * does exactly what it reports and nothing else. Closed when the command ends.
 */
export async function withCliContext<T>(
  config: AppConfig,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, role: 'cli' }), {
    logger: false,
    abortOnError: false,
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
