import express, { type Request, type Response, type Router } from 'express';
import type { FaultSpec, ProviderName } from '../faults/fault-spec';
import type { CallFilter } from './call-log';
import type { SandboxProviderControl } from '../sandbox-provider';
import type { SandboxControl } from './control';

function isRate(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

function isTrigger(value: unknown): boolean {
  if (value === undefined || value === true || isRate(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { rate, next } = value as { rate?: unknown; next?: unknown };
  return (
    (rate === undefined || isRate(rate)) && (next === undefined || (Number.isInteger(next) && (next as number) >= 0))
  );
}

/** Checks a fault body from HTTP; returns a problem description or undefined. */
function faultProblem(body: Record<string, unknown>, kinds: readonly string[]): string | undefined {
  if (!kinds.includes(body.provider as string) && body.provider !== 'all')
    return `provider must be ${kinds.map((kind) => `'${kind}'`).join(', ')} or 'all'`;
  if (body.companyId !== undefined && typeof body.companyId !== 'string') return 'companyId must be a string';
  if (body.latencyMs !== undefined && (typeof body.latencyMs !== 'number' || body.latencyMs < 0))
    return 'latencyMs must be ≥ 0';
  if (body.errorRate !== undefined && !isRate(body.errorRate)) return 'errorRate must be in [0, 1]';
  if (body.errorNext !== undefined && !Number.isInteger(body.errorNext)) return 'errorNext must be an integer';
  if (body.errorStatus !== undefined && !(Number.isInteger(body.errorStatus) && (body.errorStatus as number) >= 500))
    return 'errorStatus must be a 5xx status';
  if (!isTrigger(body.rateLimit)) return 'rateLimit must be a rate in [0, 1] or {rate?, next?, omitRetryHeader?}';
  if (!isTrigger(body.dropConnections))
    return 'dropConnections must be true, a rate in [0, 1] or {rate?, next?, afterHandling?}';
  if (!isTrigger(body.hideResults)) return 'hideResults must be true, a rate in [0, 1] or {rate?, next?}';
  return undefined;
}

/** HTTP face of the control object under `/_sandbox`, for tests that only see the network. */
export function controlRouter(control: SandboxControl): Router {
  const router = express.Router();
  router.use(express.json());
  const kinds = control.kinds();
  /** The control of the provider named by the path, or a 404 naming the kinds there are. */
  const providerOf = (kind: string, res: Response): SandboxProviderControl | undefined => {
    if (kinds.includes(kind)) return control.for(kind);
    res.status(404).json({ message: `provider must be one of ${kinds.join(', ')}` });
    return undefined;
  };

  router.get('/faults', (_req, res) => {
    res.json(control.faults());
  });

  router.post('/faults', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const problem = faultProblem(body, kinds);
    if (problem) {
      res.status(400).json({ message: problem });
      return;
    }
    res.status(201).json(control.addFault(body as unknown as FaultSpec));
  });

  router.delete('/faults', (_req, res) => {
    control.clearFaults();
    res.status(204).end();
  });

  router.delete('/faults/:id', (req, res) => {
    res.status(control.removeFault(req.params.id) ? 204 : 404).end();
  });

  router.post('/expire-tokens', (req, res) => {
    const body = (req.body ?? {}) as { provider?: string; companyId?: string };
    const provider: ProviderName | 'all' = kinds.includes(body.provider ?? '') ? body.provider! : 'all';
    res.json({ expired: control.expireTokens(provider, body.companyId) });
  });

  router.post('/reset', (_req, res) => {
    control.reset();
    res.status(204).end();
  });

  router.get('/calls', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const filter: CallFilter = {
      provider: kinds.includes(q.provider ?? '') ? q.provider : undefined,
      method: q.method,
      path: q.path,
      company: q.company,
      status: q.status ? Number(q.status) : undefined,
    };
    res.json(control.calls(filter));
  });

  router.get('/call-counts', (_req, res) => {
    res.json(control.callCounts());
  });

  router.get('/bookings/:provider/:company', (req, res) => {
    const provider = providerOf(req.params.provider, res);
    if (!provider) return;
    try {
      res.json(provider.bookings(req.params.company));
    } catch (error) {
      res.status(404).json({ message: (error as Error).message });
    }
  });

  router.get('/:provider/companies', (req, res) => {
    const provider = providerOf(req.params.provider, res);
    if (provider) res.json(provider.companies());
  });

  router.get('/:provider/traffic', (req, res) => {
    const provider = providerOf(req.params.provider, res);
    if (!provider) return;
    if (!provider.traffic) {
      res.status(404).json({ message: `the ${req.params.provider} sandbox keeps no traffic report` });
      return;
    }
    res.json(provider.traffic());
  });

  router.post('/:provider/tokens', (req, res) => {
    const provider = providerOf(req.params.provider, res);
    if (!provider) return;
    if (!provider.issueTokens) {
      res.status(404).json({ message: `the ${req.params.provider} sandbox issues no tokens this way` });
      return;
    }
    const company = (req.body as { company?: string | number } | undefined)?.company ?? 0;
    try {
      res.status(201).json(provider.issueTokens(company));
    } catch (error) {
      res.status(404).json({ message: (error as Error).message });
    }
  });

  return router;
}
