import { createSandbox } from './sandbox';
import {
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_FIKEN_DEMO_SLUG,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
} from './constants';

/** Runs the provider sandboxes standalone: `PORT` (default 4010), `HOST` (default 127.0.0.1). */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 4010);
  const host = process.env.HOST ?? '127.0.0.1';
  const numberEnv = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
  const sandbox = createSandbox({
    seed: numberEnv('SANDBOX_SEED'),
    companies: numberEnv('SANDBOX_COMPANIES'),
    entriesPerCompany: numberEnv('SANDBOX_ENTRIES_PER_COMPANY'),
    invoicesPerCompany: numberEnv('SANDBOX_INVOICES_PER_COMPANY'),
    latencyMs: numberEnv('SANDBOX_LATENCY_MS'),
    publicUrl: process.env.SANDBOX_PUBLIC_URL,
  });
  const running = await sandbox.start(port, host);
  const lines = [
    `Provider sandbox listening on ${running.url}`,
    `  Tripletex API      ${running.tripletexApi}   (consumer token ${SANDBOX_TRIPLETEX_CONSUMER_TOKEN}, employee token ${SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN})`,
    `  Tripletex consent  ${running.tripletexConsent}?redirect_uri=…&state=…`,
    `  Fiken API          ${running.fikenApi}   (demo company ${SANDBOX_FIKEN_DEMO_SLUG})`,
    `  Fiken OAuth        ${running.fikenOAuth}/{authorize,token,revoke}   (client ${SANDBOX_FIKEN_CLIENT_ID} / ${SANDBOX_FIKEN_CLIENT_SECRET})`,
    `  Control            ${running.control}/{faults,reset,calls,call-counts,bookings/:provider/:company,:provider/companies,:provider/tokens}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const shutdown = (): void => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`Sandbox failed to start: ${String(error)}\n`);
  process.exit(1);
});
