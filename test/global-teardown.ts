import * as fs from 'node:fs';
import { onServer } from './global-setup';

/** Drops the run's template database, and stops and removes the embedded server if the setup started one. */
export default async function globalTeardown(): Promise<void> {
  const embedded = globalThis.__EMBEDDED_PG__;
  if (embedded) {
    await embedded.server.stop();
    fs.rmSync(embedded.dataDir, { recursive: true, force: true });
  } else if (globalThis.__TEST_TEMPLATE__) {
    const { url, name } = globalThis.__TEST_TEMPLATE__;
    await onServer(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}
