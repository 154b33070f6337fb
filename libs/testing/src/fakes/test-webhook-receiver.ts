import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it, raw body included (signatures are over raw bytes). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** What the receiver did with it: the status it answered, or how it failed to. */
  answer: number | 'hang' | 'reset';
}

/** How the receiver answers the next request. */
export type ReceiverBehaviour =
  /** Answers; with `after`, only once it resolves (a slow receiver). */
  | { type: 'respond'; status: number; body?: string; headers?: Record<string, string>; after?: Promise<void> }
  /** Never answers (the sender must time out). */
  | { type: 'hang' }
  /** Resets the TCP connection after reading the request. */
  | { type: 'reset' };

export const respond = (status: number, body = '', headers: Record<string, string> = {}): ReceiverBehaviour => ({
  type: 'respond',
  status,
  body,
  headers,
});

/**
 * A local HTTP receiver on 127.0.0.1 and an ephemeral port, for testing the webhook and Slack
 * senders (and e2e tests that need to see notifications). Answers follow a script of behaviours,
 * then the default (200 `ok`).
 */
export class TestWebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly script: ReceiverBehaviour[] = [];
  private fallback: ReceiverBehaviour = respond(200, 'ok');
  private decide: ((request: ReceivedRequest) => ReceiverBehaviour | undefined) | undefined;
  private server: Server | undefined;
  private origin = '';

  static async start(): Promise<TestWebhookReceiver> {
    const receiver = new TestWebhookReceiver();
    await receiver.listen();
    return receiver;
  }

  /** `http://127.0.0.1:<port><path>` */
  url(path = '/hook'): string {
    return `${this.origin}${path}`;
  }

  /** Queues behaviours for the next requests, in order. */
  queue(...behaviours: ReceiverBehaviour[]): this {
    this.script.push(...behaviours);
    return this;
  }

  /** The behaviour once the script is used up. */
  otherwise(behaviour: ReceiverBehaviour): this {
    this.fallback = behaviour;
    return this;
  }

  /** Decides per request (before the script); return undefined to fall through. */
  answerWith(decide: (request: ReceivedRequest) => ReceiverBehaviour | undefined): this {
    this.decide = decide;
    return this;
  }

  /** Requests that were answered 2xx. */
  accepted(): ReceivedRequest[] {
    return this.requests.filter((r) => typeof r.answer === 'number' && r.answer >= 200 && r.answer < 300);
  }

  json<T = unknown>(request: ReceivedRequest): T {
    return JSON.parse(request.rawBody.toString('utf8')) as T;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      rawBody: Buffer.concat(chunks),
      answer: 'hang',
    };
    const behaviour = this.decide?.(received) ?? this.script.shift() ?? this.fallback;
    received.answer = behaviour.type === 'respond' ? behaviour.status : behaviour.type;
    this.requests.push(received);
    switch (behaviour.type) {
      case 'respond':
        if (behaviour.after) await behaviour.after;
        res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers });
        res.end(behaviour.body ?? '');
        return;
      case 'hang':
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
    }
  }
}
