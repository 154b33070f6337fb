import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../apps/accounting-api/src/app.module';
import { loadConfig } from '../../apps/accounting-api/src/config/app-config';

/**
 * The background work alone in a process of its own, for the crash tests: the whole service's
 * wiring (AppModule) without HTTP, configured from the environment the test hands it (test
 * database, hosted sandbox, EXECUTOR_*, OUTBOX_*). Prints `ready` once its workers run; the test
 * kills it with SIGKILL.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config: loadConfig(), checkDatabaseRole: false }),
    {
      logger: false,
      abortOnError: false,
    },
  );
  await app.init();
  process.stdout.write('ready\n');
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`executor child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
