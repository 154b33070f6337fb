import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

interface FakeKey {
  readonly id: string;
  readonly arn: string;
  readonly alias: string;
  readonly material: Buffer;
}

export interface RecordedKmsRequest {
  readonly target: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

type Handler = (body: Record<string, unknown>) => [number, Record<string, unknown>];

const REGION = 'eu-north-1';
const ACCOUNT = '111122223333';

/**
 * A local stand-in for AWS KMS on 127.0.0.1 speaking the AWS JSON 1.1 protocol
 * (`X-Amz-Target: TrentService.<Operation>`, base64 blobs) for Encrypt, Decrypt and DescribeKey.
 * Like KMS, its ciphertext blobs name the key that made them and are bound to the encryption
 * context; it "encrypts" with AES-256-GCM under its own per-key material. Signatures are not checked.
 */
export class FakeKmsServer {
  readonly requests: RecordedKmsRequest[] = [];
  private readonly keys: FakeKey[] = [];
  private readonly server: Server;
  /** Status codes to answer the next requests with before serving them normally. */
  private readonly faults: number[] = [];

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  /** Creates a key reachable by id, ARN or `alias/<alias>`. */
  createKey(alias: string): { id: string; arn: string; alias: string } {
    const id = randomUUID();
    const key = {
      id,
      arn: `arn:aws:kms:${REGION}:${ACCOUNT}:key/${id}`,
      alias: `alias/${alias}`,
      material: randomBytes(32),
    };
    this.keys.push(key);
    return { id: key.id, arn: key.arn, alias: key.alias };
  }

  failNext(...statuses: number[]): void {
    this.faults.push(...statuses);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    this.requests.push({
      target,
      contentType: request.headers['content-type'],
      authorization: request.headers.authorization,
      body,
    });
    const fault = this.faults.shift();
    if (fault !== undefined)
      return send(response, fault, { __type: 'KMSInternalException', message: 'injected fault' });
    const handlers: Record<string, Handler> = {
      'TrentService.Encrypt': (input) => this.encrypt(input),
      'TrentService.Decrypt': (input) => this.decrypt(input),
      'TrentService.DescribeKey': (input) => this.describeKey(input),
    };
    const handler = handlers[target];
    if (!handler) return send(response, 400, { __type: 'UnknownOperationException', message: target });
    const [status, answer] = handler(body);
    send(response, status, answer);
  }

  private encrypt(input: Record<string, unknown>): [number, Record<string, unknown>] {
    const key = this.resolve(input.KeyId);
    if (!key) return notFound(input.KeyId);
    const plaintext = Buffer.from(String(input.Plaintext), 'base64');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.material, iv, { authTagLength: 16 });
    cipher.setAAD(contextBytes(input.EncryptionContext));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const arn = Buffer.from(key.arn, 'utf8');
    const blob = Buffer.concat([Buffer.of(arn.length), arn, iv, ciphertext, cipher.getAuthTag()]);
    return [200, { CiphertextBlob: blob.toString('base64'), KeyId: key.arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' }];
  }

  private decrypt(input: Record<string, unknown>): [number, Record<string, unknown>] {
    const blob = Buffer.from(String(input.CiphertextBlob), 'base64');
    const arnLength = blob[0] ?? 0;
    const key = this.resolve(blob.subarray(1, 1 + arnLength).toString('utf8'));
    if (!key || blob.length < 1 + arnLength + 12 + 16) return invalidCiphertext();
    if (input.KeyId !== undefined && this.resolve(input.KeyId) !== key) {
      return [
        400,
        {
          __type: 'IncorrectKeyException',
          message: 'The key ID in the request does not identify the key that encrypted the ciphertext',
        },
      ];
    }
    const iv = blob.subarray(1 + arnLength, 13 + arnLength);
    const decipher = createDecipheriv('aes-256-gcm', key.material, iv, { authTagLength: 16 });
    decipher.setAAD(contextBytes(input.EncryptionContext));
    decipher.setAuthTag(blob.subarray(blob.length - 16));
    try {
      const plaintext = Buffer.concat([
        decipher.update(blob.subarray(13 + arnLength, blob.length - 16)),
        decipher.final(),
      ]);
      return [
        200,
        { Plaintext: plaintext.toString('base64'), KeyId: key.arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' },
      ];
    } catch {
      return invalidCiphertext();
    }
  }

  private describeKey(input: Record<string, unknown>): [number, Record<string, unknown>] {
    const key = this.resolve(input.KeyId);
    if (!key) return notFound(input.KeyId);
    return [
      200,
      {
        KeyMetadata: {
          AWSAccountId: ACCOUNT,
          KeyId: key.id,
          Arn: key.arn,
          Enabled: true,
          KeyState: 'Enabled',
          KeyUsage: 'ENCRYPT_DECRYPT',
          KeySpec: 'SYMMETRIC_DEFAULT',
          CreationDate: 1767225600,
        },
      },
    ];
  }

  private resolve(reference: unknown): FakeKey | undefined {
    return this.keys.find((key) => reference === key.id || reference === key.arn || reference === key.alias);
  }
}

/** The encryption context as KMS binds it: order of the pairs does not matter. */
function contextBytes(context: unknown): Buffer {
  const pairs = Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Buffer.from(JSON.stringify(pairs), 'utf8');
}

function notFound(keyId: unknown): [number, Record<string, unknown>] {
  return [400, { __type: 'NotFoundException', message: `Key '${String(keyId)}' does not exist` }];
}

function invalidCiphertext(): [number, Record<string, unknown>] {
  return [400, { __type: 'InvalidCiphertextException', message: '' }];
}

function send(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
  response.end(JSON.stringify(body));
}
