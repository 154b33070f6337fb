import { randomBytes } from 'node:crypto';
import { promises as fs, constants as fsConstants } from 'node:fs';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { KEY_BYTES, decrypt, encrypt, packBox, unpackBox } from './aes-gcm';
import { encodeAdditionalData } from './additional-data';
import { Kms, KmsError, RotatableKms, WrapPurpose, WrappedDek } from './ports/kms.port';

/** The keyring file: `{"current": 2, "keys": {"1": "<base64 32 bytes>", "2": "…"}}`. */
interface KeyringFile {
  current: number;
  keys: Record<string, string>;
}

interface Keyring {
  readonly current: number;
  readonly keys: ReadonlyMap<number, Buffer>;
}

const KEK_ID = /^local:v([1-9][0-9]*)$/;

/**
 * Key encryption keys from a local keyring file with versioned KEKs (development and the embedded
 * default). The file is created with mode 0600 if absent and refused if group or others may access
 * it. It is read on every call, so a rotation by another process (the CLI) is seen at once, and the
 * KEKs are in memory only during the call.
 *
 * A DEK is wrapped with AES-256-GCM under the current KEK, additional data
 * `["dek-wrap:v<version>", companyId]` (length-prefixed); stored as `IV ‖ ciphertext ‖ tag`. An
 * event chain key likewise, with `["event-chain-wrap:v<version>", "v<key version>"]`.
 */
export class LocalKeyringKms extends Kms implements RotatableKms {
  constructor(private readonly path: string) {
    super();
  }

  async wrap(key: Uint8Array, subject: string, purpose: WrapPurpose = 'dek'): Promise<WrappedDek> {
    const keyring = await this.load();
    try {
      const kek = keyring.keys.get(keyring.current)!;
      const box = encrypt(kek, key, wrapAdditionalData(keyring.current, subject, purpose));
      return { wrapped: packBox(box), kekId: kekIdOf(keyring.current) };
    } finally {
      wipe(keyring);
    }
  }

  async unwrap(wrapped: WrappedDek, subject: string, purpose: WrapPurpose = 'dek'): Promise<Buffer> {
    const version = versionOf(wrapped.kekId);
    const keyring = await this.load();
    try {
      const kek = keyring.keys.get(version);
      if (!kek) throw new KmsError(`the keyring has no KEK ${wrapped.kekId}`);
      return decrypt(kek, unpackBox(wrapped.wrapped), wrapAdditionalData(version, subject, purpose));
    } finally {
      wipe(keyring);
    }
  }

  async currentKekId(): Promise<string> {
    const keyring = await this.load();
    wipe(keyring);
    return kekIdOf(keyring.current);
  }

  /** Adds KEK version `current + 1`, makes it current and writes the keyring atomically (mode 0600). */
  async rotate(): Promise<string> {
    const keyring = await this.load();
    try {
      const next = Math.max(...keyring.keys.keys()) + 1;
      const keys: Record<string, string> = {};
      for (const [version, kek] of keyring.keys) keys[String(version)] = kek.toString('base64');
      const kek = randomBytes(KEY_BYTES);
      keys[String(next)] = kek.toString('base64');
      kek.fill(0);
      await this.replaceFile({ current: next, keys });
      return kekIdOf(next);
    } finally {
      wipe(keyring);
    }
  }

  toJSON(): Record<string, string> {
    return { type: 'LocalKeyringKms', path: this.path };
  }

  [inspect.custom](): string {
    return `LocalKeyringKms { path: ${JSON.stringify(this.path)} }`;
  }

  private async load(): Promise<Keyring> {
    let text: string;
    try {
      await this.requirePrivate();
      text = await fs.readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      text = await this.create();
    }
    return parseKeyring(text, this.path);
  }

  private async requirePrivate(): Promise<void> {
    const { mode } = await fs.stat(this.path);
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new KmsError(
        `keyring ${this.path} is accessible by group or others (mode ${(mode & 0o777).toString(8)}); run chmod 600 on it`,
      );
    }
  }

  /**
   * Creates a keyring with one KEK: written in full to a private temporary file, then linked into
   * place, which fails if the keyring exists — so a reader never sees a half-written keyring and,
   * if another process won the race, its keyring is the one used.
   */
  private async create(): Promise<string> {
    const kek = randomBytes(KEY_BYTES);
    const text = serialise({ current: 1, keys: { '1': kek.toString('base64') } });
    kek.fill(0);
    await fs.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = await this.writePrivateTemporary(text);
    try {
      await fs.link(temporary, this.path);
      return text;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await this.requirePrivate();
      return fs.readFile(this.path, 'utf8');
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }

  /** Replaces the keyring atomically (rename), so readers see the old or the new one, whole. */
  private async replaceFile(content: KeyringFile): Promise<void> {
    const temporary = await this.writePrivateTemporary(serialise(content));
    try {
      await fs.rename(temporary, this.path);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  private async writePrivateTemporary(text: string): Promise<string> {
    const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temporary, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fs.rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    return temporary;
  }
}

function parseKeyring(text: string, path: string): Keyring {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KmsError(`keyring ${path} is not valid JSON`);
  }
  const file = parsed as Partial<KeyringFile> | null;
  if (
    !file ||
    typeof file !== 'object' ||
    !Number.isInteger(file.current) ||
    !file.keys ||
    typeof file.keys !== 'object'
  ) {
    throw new KmsError(`keyring ${path} must look like {"current": 1, "keys": {"1": "<base64>"}}`);
  }
  const keys = new Map<number, Buffer>();
  for (const [name, value] of Object.entries(file.keys)) {
    const version = Number(name);
    const kek = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
    if (!Number.isInteger(version) || version < 1 || kek.length !== KEY_BYTES) {
      kek.fill(0);
      wipe({ current: 0, keys });
      throw new KmsError(`keyring ${path}: KEK "${name}" must be a positive version with a base64 32-byte key`);
    }
    keys.set(version, kek);
  }
  if (!keys.has(file.current!)) {
    wipe({ current: 0, keys });
    throw new KmsError(`keyring ${path}: the current version ${file.current} has no key`);
  }
  return { current: file.current!, keys };
}

function serialise(content: KeyringFile): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

function wipe(keyring: Keyring): void {
  for (const kek of keyring.keys.values()) kek.fill(0);
}

function wrapAdditionalData(version: number, subject: string, purpose: WrapPurpose): Buffer {
  return encodeAdditionalData([`${purpose}-wrap:v${version}`, subject]);
}

function kekIdOf(version: number): string {
  return `local:v${version}`;
}

function versionOf(kekId: string): number {
  const match = KEK_ID.exec(kekId);
  if (!match) throw new KmsError(`${JSON.stringify(kekId)} is not a local keyring KEK id`);
  return Number(match[1]);
}
