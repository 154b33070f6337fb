import { inspect } from 'node:util';
import { DecryptCommand, DescribeKeyCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { SecretUnreadable } from '@app/domain';
import { KEY_BYTES } from './aes-gcm';
import { Kms, KmsError, WrapPurpose, WrappedDek } from './ports/kms.port';

export interface AwsKmsSettings {
  /** Key id, ARN or alias of a symmetric KMS key that wraps new DEKs. */
  readonly keyId: string;
  readonly region: string;
  /** Override of the service endpoint (VPC endpoint, LocalStack, a test fake). */
  readonly endpoint?: string;
  /** Static credentials; without them the SDK's default provider chain is used (env, profile, IAM role). */
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
  /** Per-request timeout in milliseconds (default 5000). */
  readonly requestTimeoutMs?: number;
  /** Attempts per call including retries of throttling and 5xx (default 3). */
  readonly maxAttempts?: number;
}

/**
 * Key encryption keys held by AWS KMS. A DEK is wrapped with `Encrypt` under the configured key,
 * with encryption context `{purpose: "dek-wrap", company_id}` (an event chain key with
 * `{purpose: "event-chain-wrap", key_version}`); it is unwrapped with `Decrypt` naming the key that
 * wrapped it (`kekId` is the key ARN KMS answers with) and the same context.
 * Rotation happens in KMS: automatic key rotation needs no re-wrap; a new key id in the
 * configuration is followed by `rewrapAll`, which moves every DEK under the new key.
 */
export class AwsKms extends Kms {
  private readonly client: KMSClient;
  private currentArn: Promise<string> | undefined;

  constructor(private readonly settings: AwsKmsSettings) {
    super();
    this.client = new KMSClient({
      region: settings.region,
      endpoint: settings.endpoint,
      credentials: settings.credentials,
      maxAttempts: settings.maxAttempts ?? 3,
      requestHandler: { requestTimeout: settings.requestTimeoutMs ?? 5000, connectionTimeout: 2000 },
    });
  }

  async wrap(key: Uint8Array, subject: string, purpose: WrapPurpose = 'dek'): Promise<WrappedDek> {
    const answer = await this.client
      .send(
        new EncryptCommand({
          KeyId: this.settings.keyId,
          Plaintext: key,
          EncryptionContext: encryptionContext(subject, purpose),
        }),
      )
      .catch((error: unknown) => {
        throw kmsFailure('Encrypt', error);
      });
    if (!answer.CiphertextBlob) throw new KmsError('AWS KMS Encrypt answered without a ciphertext');
    return { wrapped: Buffer.from(answer.CiphertextBlob), kekId: answer.KeyId ?? this.settings.keyId };
  }

  async unwrap(wrapped: WrappedDek, subject: string, purpose: WrapPurpose = 'dek'): Promise<Buffer> {
    const answer = await this.client
      .send(
        new DecryptCommand({
          KeyId: wrapped.kekId,
          CiphertextBlob: wrapped.wrapped,
          EncryptionContext: encryptionContext(subject, purpose),
        }),
      )
      .catch((error: unknown) => {
        throw UNREADABLE.has(errorName(error))
          ? new SecretUnreadable('AWS KMS refused the wrapped key')
          : kmsFailure('Decrypt', error);
      });
    const plaintext = answer.Plaintext;
    if (!plaintext || plaintext.length !== KEY_BYTES) {
      plaintext?.fill(0);
      throw new KmsError('AWS KMS Decrypt did not answer with a 32-byte key');
    }
    const dek = Buffer.from(plaintext);
    plaintext.fill(0);
    return dek;
  }

  /** The ARN of the configured key (resolved once with `DescribeKey`), as `wrap` records it. */
  async currentKekId(): Promise<string> {
    this.currentArn ??= this.client
      .send(new DescribeKeyCommand({ KeyId: this.settings.keyId }))
      .then((answer) => answer.KeyMetadata?.Arn ?? this.settings.keyId)
      .catch((error: unknown) => {
        this.currentArn = undefined;
        throw kmsFailure('DescribeKey', error);
      });
    return this.currentArn;
  }

  /** Closes the SDK's connection pool. */
  destroy(): void {
    this.client.destroy();
  }

  toJSON(): Record<string, string> {
    return { type: 'AwsKms', ...this.description() };
  }

  [inspect.custom](): string {
    return `AwsKms ${JSON.stringify(this.description())}`;
  }

  private description(): Record<string, string> {
    return { keyId: this.settings.keyId, region: this.settings.region, endpoint: this.settings.endpoint ?? 'default' };
  }
}

/** KMS answers meaning "this wrapped key is not valid here", as opposed to KMS being unavailable. */
const UNREADABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'UnknownError';
}

/** Name and message only: SDK errors carry request metadata that has no place in our logs. */
function kmsFailure(operation: string, error: unknown): KmsError {
  const message = error instanceof Error ? error.message : String(error);
  return new KmsError(`AWS KMS ${operation} failed: ${errorName(error)}: ${message}`);
}

function encryptionContext(subject: string, purpose: WrapPurpose): Record<string, string> {
  return purpose === 'dek'
    ? { purpose: 'dek-wrap', company_id: subject }
    : { purpose: `${purpose}-wrap`, key_version: subject };
}
