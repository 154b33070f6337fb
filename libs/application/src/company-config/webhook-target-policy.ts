import { isIP } from 'node:net';
import { FieldErrorCollector, type CompanySettings, type WebhookTarget } from '@app/domain';

const TARGET_FIELDS = ['reviewChannel', 'invoicesChannel', 'gatewayCallback'] as const;

/** Host names that always mean "this machine or its network", whatever DNS says. */
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

function ipv4Internal(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

function ipv6Internal(address: string): boolean {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return ipv4Internal(mapped[1]!);
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^ff/.test(lower);
}

/** True when the URL's host is a literal internal address or an internal name. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  switch (isIP(host)) {
    case 4:
      return ipv4Internal(host);
    case 6:
      return ipv6Internal(host);
    default:
      return INTERNAL_NAMES.test(host.replace(/\.$/, ''));
  }
}

/**
 * The production rule for notification targets, on top of the domain's form checks: the service
 * posts signed company data to them, so they must be https and must not point into the service's own
 * network (a settings-driven request forgery). Literal addresses and internal names are checked
 * here; names that resolve to internal addresses are the egress proxy's or firewall's job.
 */
export function assertPublicWebhookTargets(settings: CompanySettings, changed: Partial<Record<string, unknown>>): void {
  const errors = new FieldErrorCollector();
  for (const field of TARGET_FIELDS) {
    const target: WebhookTarget | null = settings[field];
    if (changed[field] === undefined || target === null) continue;
    const url = new URL(target.url);
    if (url.protocol !== 'https:') errors.add(`${field}.url`, `${field}.url must be an https URL`);
    else if (isInternalHost(url.hostname)) {
      errors.add(`${field}.url`, `${field}.url must not point to a loopback, private or internal host`);
    }
    if (url.username || url.password) errors.add(`${field}.url`, `${field}.url must not carry credentials`);
  }
  errors.throwIfAny('the company settings are invalid');
}
