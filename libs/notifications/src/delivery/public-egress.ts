import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { isPublicAddress } from '@app/application';

/** An address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all its addresses (the system resolver, or a test's). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The `code` of the error a connection to an internal address fails with; the delivery is then refused for good. */
export const INTERNAL_TARGET = 'ERR_INTERNAL_TARGET';

function refusal(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} resolves to an address that is not public`), { code: INTERNAL_TARGET });
}

/**
 * The `lookup` of the sockets that deliver webhooks in production: the name is resolved, and if any
 * address it resolves to is not public (loopback, private, link-local, an IPv6 form of one …) the
 * connection fails with INTERNAL_TARGET before it is made. The socket then connects to exactly the
 * addresses checked here, so a name cannot resolve to a public address for the check and to an
 * internal one for the connection.
 */
export function publicOnlyLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        if (resolved.length === 0 || resolved.some((entry) => !isPublicAddress(entry.address))) {
          callback(refusal(hostname), '', 0);
          return;
        }
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = resolved.filter((entry) => family === undefined || entry.family === family);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [...usable]);
        } else {
          callback(null, usable[0].address, usable[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * The HTTP agent webhooks are sent through. `publicOnly` (production): names are resolved through
 * `publicOnlyLookup`; literal addresses never reach a lookup and are checked by `postBytes`.
 */
export function deliveryAgent(options: { publicOnly: boolean; resolve?: Resolver }): Agent {
  return options.publicOnly
    ? new Agent({ connect: { lookup: publicOnlyLookup(options.resolve ?? systemResolver) } })
    : new Agent();
}
