import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../apps/accounting-api/src/app.module';
import { loadConfig } from '../../apps/accounting-api/src/config/app-config';

/**
 * Resolves on the first line of stdin; exits when stdin closes first (the test is over). The
 * imports above, most of a child's start-up, are done by then.
 */
function startSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
    process.stdin.once('end', () => process.exit(0));
  });
}

/**
 * The background work alone in a process of its own, for the crash tests: the whole service's
 * wiring (AppModule) without HTTP, configured from the environment the test hands it (test
 * database, hosted sandbox, EXECUTOR_*, OUTBOX_*). Prints `ready` once its workers run; the test
 * kills it with SIGKILL.
 * With EXECUTOR_CHILD_START=stdin it loads its code, then waits for a line on stdin before it
 * reads its configuration and boots: a test can load the next child while the current one runs.
 */
async function main(): Promise<void> {
  if (process.env.EXECUTOR_CHILD_START === 'stdin') await startSignal();
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
