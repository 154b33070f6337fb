import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import {
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_DEMO_SLUG,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
} from './constants';
import { CallLog } from './control/call-log';
import { createControl, type SandboxControl } from './control/control';
import { controlRouter } from './control/control.router';
import { FaultRegistry } from './faults/fault-registry';
import { exchangeTap } from './inspect/exchange-tap';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options';
import type { SandboxProvider, SandboxProviderControl } from './sandbox-provider';
import { SANDBOX_PROVIDERS } from './sandbox-providers';

/**
 * The environment that points a service at the sandboxes served at `url` (`http://host:port`):
 * each provider's own variables, with the sandbox's address and credentials.
 */
export function sandboxEnvironment(url: string): Readonly<Record<string, string>> {
  return Object.assign({}, ...SANDBOX_PROVIDERS.map((provider) => provider.environment(url)));
}

export interface SandboxUrls {
  /** `http://host:port` */
  url: string;
  /** Tripletex API root: `{url}/tripletex/v2` */
  tripletexApi: string;
  /** Tripletex consent page: `{url}/tripletex/consent` */
  tripletexConsent: string;
  /** Fiken API root: `{url}/fiken/api/v2` */
  fikenApi: string;
  /** Fiken OAuth root: `{url}/fiken/oauth` (authorize, token, revoke) */
  fikenOAuth: string;
  /** Control endpoints: `{url}/_sandbox` */
  control: string;
}

export interface RunningSandbox extends SandboxUrls {
  close(): Promise<void>;
}

export interface Sandbox {
  /** The Express application serving both providers; mount it or hand it to supertest. */
  app: Express;
  /** Listens on `port` (0 = any free port) and `host`. */
  start(port?: number, host?: string): Promise<RunningSandbox>;
  control: SandboxControl;
  options: ResolvedOptions;
}

export function sandboxUrls(url: string): SandboxUrls {
  return {
    url,
    tripletexApi: `${url}/tripletex/v2`,
    tripletexConsent: `${url}/tripletex/consent`,
    fikenApi: `${url}/fiken/api/v2`,
    fikenOAuth: `${url}/fiken/oauth`,
    control: `${url}/_sandbox`,
  };
}

/**
 * Builds the providers' sandboxes (`SANDBOX_PROVIDERS`) as one Express app, each under `/{kind}`
 * (Tripletex under `/tripletex`, Fiken under `/fiken`), the control endpoints under `/_sandbox` (unless `controlApi` is false). Seeded data is generated lazily and
 * deterministically from the seed; only tokens and bookings made through the API are stored.
 */
export function createSandbox(
  input: SandboxOptions & {
    /** The sandboxes served: `SANDBOX_PROVIDERS`, or a test's list with one of its own added. */
    providers?: readonly SandboxProvider<string, any, SandboxProviderControl>[];
  } = {},
): Sandbox {
  const options = resolveOptions(input);
  const faults = new FaultRegistry(options.seed);
  const log = new CallLog(options.callLogSize);
  const controls = new Map<string, SandboxProviderControl>();

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(exchangeTap());
  for (const provider of input.providers ?? SANDBOX_PROVIDERS) {
    const state: unknown = provider.createState(options);
    app.use(`/${provider.kind}`, provider.router(state, faults, log));
    controls.set(provider.kind, provider.control(state));
  }
  // The control API: faults and counters across the sandboxes, and each one's own data (its
  // companies, bookings, tokens) through its provider's control.
  const control = createControl(controls, faults, log);
  if (input.controlApi !== false) {
    app.use('/_sandbox', controlRouter(control));
    app.get('/', (req, res) => {
      const base = options.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      res.json({
        ...sandboxUrls(base),
        credentials: {
          tripletexConsumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
          tripletexEmployeeToken: SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
          fikenClientId: SANDBOX_FIKEN_CLIENT_ID,
          fikenDemoSlug: SANDBOX_FIKEN_DEMO_SLUG,
        },
        companies: { tripletex: options.tripletex.companies, fiken: options.fiken.companies },
      });
    });
  }

  const start = (port = 0, host = '127.0.0.1'): Promise<RunningSandbox> =>
    new Promise((resolve, reject) => {
      const server = app.listen(port, host);
      server.once('error', reject);
      server.once('listening', () => {
        const address = server.address() as AddressInfo;
        const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve({
          ...sandboxUrls(`http://${shownHost}:${address.port}`),
          close: () =>
            new Promise<void>((done, fail) => {
              server.closeAllConnections();
              server.close((error) => (error ? fail(error) : done()));
            }),
        });
      });
    });

  return { app, start, control, options };
}
