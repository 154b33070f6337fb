import * as ipaddr from 'ipaddr.js';
import { FieldErrorCollector, type CompanySettings, type WebhookTarget } from '@app/domain';

const TARGET_FIELDS = ['reviewChannel', 'invoicesChannel', 'gatewayCallback'] as const;

/** Host names that always mean "this machine or its network", whatever DNS says. */
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** IPv6 global unicast, 2000::/3: every other IPv6 block is local, special-purpose or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
/** 6to4 (RFC 3056): the IPv4 address is bits 16–47. */
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

function ipv4Public(address: ipaddr.IPv4): boolean {
  // Loopback, private, link-local (cloud metadata), CGNAT, multicast, broadcast and the IETF's
  // special-purpose blocks (192.0.0.0/24, documentation, benchmarking, 240/4 …) are all ranges of
  // their own in ipaddr.js; what remains is 'unicast'.
  return address.range() === 'unicast';
}

function embeddedIpv4(address: ipaddr.IPv6, firstByte: number): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(firstByte, firstByte + 4));
}

function ipv6Public(address: ipaddr.IPv6): boolean {
  // The forms that carry an IPv4 address are judged by that address: mapped (::ffff:a.b.c.d, as
  // the URL parser and dual-stack resolvers write IPv4), NAT64 and 6to4.
  if (address.isIPv4MappedAddress()) return ipv4Public(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) return ipv4Public(embeddedIpv4(address, 12));
  if (address.match(SIX_TO_FOUR)) return ipv4Public(embeddedIpv4(address, 2));
  // Outside 2000::/3 fall loopback, IPv4-compatible (::a.b.c.d), NAT64's local-use prefix, unique
  // local, link-local, multicast …; inside it, Teredo, documentation and other special blocks have
  // ranges of their own.
  return address.match(GLOBAL_UNICAST_V6) && address.range() === 'unicast';
}

/**
 * True when an IP address (v4 or v6, as text) is one a webhook may be delivered to: globally
 * routable unicast, also when written in one of IPv6's forms that embed an IPv4 address. False for
 * anything that is not an IP address.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv4' ? ipv4Public(parsed as ipaddr.IPv4) : ipv6Public(parsed as ipaddr.IPv6);
}

/**
 * True when the URL's host is an IP address that is not public, or a name that always means an
 * internal host. Other names are checked where it counts, on the address they resolve to when the
 * delivery connects (@app/notifications).
 */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return !isPublicAddress(host);
  return INTERNAL_NAMES.test(host.replace(/\.$/, ''));
}

/**
 * The production rule for notification targets, on top of the domain's form checks: the service
 * posts signed company data to them, so they must be https and must not point into the service's own
 * network (a settings-driven request forgery). Literal addresses and internal names are refused
 * here; a name that resolves to an internal address is refused when the delivery connects.
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
