import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { ExpressServerAdapter } from './express-server.adapter';

describe('ExpressServerAdapter', () => {
  let adapter: ExpressServerAdapter;
  let server: Server;
  let express: Express;

  beforeEach(async () => {
    adapter = new ExpressServerAdapter();
    adapter.initHttpServer({});
    express = adapter.getInstance<Express>();
    server = adapter.getHttpServer() as Server;
    express.get('/echo', (req, res) => {
      res.json({ path: req.path, query: req.query, ip: typeof req.ip });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

  it("creates requests and responses with Express's prototypes already, so that Express need not change them", async () => {
    const seen: boolean[] = [];
    // Runs before Express sees the request.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === express.request, Object.getPrototypeOf(res) === express.response);
    });

    const response = await fetch(url('/echo?x=1'));

    expect(seen).toEqual([true, true]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ path: '/echo', query: { x: '1' }, ip: 'string' });
  });

  it('keeps them working as the http module made them: bodies, headers and keep-alive', async () => {
    express.post('/body', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => res.status(201).set('x-length', String(body.length)).send(body.toUpperCase()));
    });

    const first = await fetch(url('/body'), { method: 'POST', body: 'abc' });
    const second = await fetch(url('/body'), { method: 'POST', body: 'hello' });

    expect([first.status, first.headers.get('x-length'), await first.text()]).toEqual([201, '3', 'ABC']);
    expect([second.status, await second.text()]).toEqual([201, 'HELLO']);
  });
});
