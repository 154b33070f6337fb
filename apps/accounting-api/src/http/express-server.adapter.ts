import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Nest's Express adapter, with an HTTP server whose requests and responses are born with Express's
 * own prototypes (`app.request`, `app.response`).
 *
 * Why: Express gives every request and response its prototypes with `Object.setPrototypeOf` as
 * they arrive. In V8 (Node 20) an object whose prototype changed does not reuse the hidden classes
 * of the properties added to it afterwards: each of the ~25 properties Express, the router,
 * Passport, pino-http and our middleware add to a request or response made a new hidden class, on
 * every request — about 40 KB per request that went straight to the old generation, which a
 * major collection then had to clear every 4 s under load, stalling requests for 50–250 ms
 * (docs/performance.md, fourth session). Created with the right prototypes, Express's
 * `setPrototypeOf` changes nothing and no hidden class is made per request.
 *
 * Only the plain HTTP server is built here; HTTPS and the closing options go to Nest's own.
 */
export class ExpressServerAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const express = this.getInstance<Express>();
    this.httpServer = http.createServer(
      {
        IncomingMessage: withPrototype(http.IncomingMessage, express.request),
        ServerResponse: withPrototype(http.ServerResponse, express.response),
      },
      express,
    );
  }
}

/**
 * A constructor that builds what `base` builds, on `prototype` instead of `base.prototype`
 * (Express's `app.request` and `app.response` inherit from http's own prototypes). The http
 * module's constructors are plain functions, so they can be applied to the new object.
 */
function withPrototype<C extends object>(base: C, prototype: object): C {
  function Constructor(this: object, ...args: unknown[]): void {
    (base as unknown as (...a: unknown[]) => void).apply(this, args);
  }
  Constructor.prototype = prototype;
  return Constructor as unknown as C;
}
