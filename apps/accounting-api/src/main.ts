import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { DatabaseRefused } from '@app/persistence';
import { createApp, exitGracefullyOn, listen } from './bootstrap';
import { ConfigError, loadConfig, loadDotEnv } from './config/app-config';
import { demoConsoleLinks } from './console/demo-console-links';

async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  let app;
  try {
    app = await createApp(config);
  } catch (error) {
    if (error instanceof DatabaseRefused) {
      process.stderr.write(`${error.message}\n(docs/operations.md, "Database roles")\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const bound = await listen(app, config);
  exitGracefullyOn(app, config);
  // For the logs (the banner below is for a person): where it listens.
  app
    .get(Logger)
    .log(`listening on ${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`, 'Main');
  const origin = config.publicUrl;
  const lines = [
    '',
    `  Accounting API listening on ${origin}${config.host === undefined ? '' : ` (bound to ${config.host}:${bound.port} only)`}`,
    `  API docs:     ${origin}/docs   (OpenAPI: ${origin}/openapi.json)`,
    `  Database:     ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`}`,
  ];
  if (config.usesDevKeys) {
    // The demo company exists only when it was seeded (the embedded database's default, or SEED_DEMO_COMPANY=true).
    const company = config.seedDemoCompany ? 'demo' : 'acme';
    lines.push(
      ...(config.seedDemoCompany
        ? []
        : [
            '  No demo company here (SEED_DEMO_COMPANY=true creates it); register one first:',
            `    npm run -s cli -- company create ${company} --name "Acme AS"`,
          ]),
      '  Mint a dev token and call the API:',
      `    TOKEN=$(npm run -s cli -- token --company ${company} --role accountant --sub ola@${company}.no)`,
      `    curl -H "Authorization: Bearer $TOKEN" ${origin}/v1/whoami`,
    );
  }
  if (config.seedDemoCompany) lines.push(...(await demoConsoleLinks(app, config)));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
