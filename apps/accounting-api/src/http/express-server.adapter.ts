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
      { IncomingMessage: requestClass(express), ServerResponse: responseClass(express) },
      express,
    );
  }
}

/** `new (requestClass(app))(socket)` is an http.IncomingMessage whose prototype is `app.request`. */
function requestClass(app: Express): typeof http.IncomingMessage {
  function ExpressRequest(this: http.IncomingMessage, socket: import('node:net').Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  return ExpressRequest as unknown as typeof http.IncomingMessage;
}

/** `new (responseClass(app))(req)` is an http.ServerResponse whose prototype is `app.response`. */
function responseClass(app: Express): typeof http.ServerResponse {
  function ExpressResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown): void {
    (http.ServerResponse as unknown as (this: http.ServerResponse, ...args: unknown[]) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return ExpressResponse as unknown as typeof http.ServerResponse;
}
