import * as fs from 'node:fs';
import * as path from 'node:path';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '@app/domain';
import type { KeyObject } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { acceptedKeys, currentKey } from './key-rotation';
import { parseJwks, type GatewayKey } from './jwks';

/** Why no key could be chosen for a token. Always ends as `401 invalid_token`. */
class KeyNotAccepted extends Error {}

/** How long an unknown kid waits before it may trigger another fetch of a remote JWKS. */
const UNKNOWN_KID_REFETCH_MS = 5_000;

/** At most this long may pass before a changed JWKS file is seen, should its change notice be lost. */
export const JWKS_FILE_CHECK_MS = 1_000;

/**
 * The gateway's public keys, from the JWKS named by GATEWAY_JWKS (a file or an http(s) URL, https in
 * production, fetched without following redirects) or the dev key set. A file is watched (fs.watch on
 * its directory, so a rename over it is seen) and re-read on the lookup after it changes; should a
 * change notice be lost (network file systems), a lookup still stats the file when more than
 * JWKS_FILE_CHECK_MS has passed since the last stat — never on every request. A URL is re-fetched every JWKS_REFRESH_SECONDS and, rate-limited, when a token names an unknown
 * kid. A key removed from the document is refused from the next lookup on.
 */
@Injectable()
export class GatewayKeyStore implements OnModuleDestroy {
  private readonly logger = new Logger(GatewayKeyStore.name);
  private keys: GatewayKey[] = [];
  private fileStamp = '';
  /** When the file was last stat'ed (performance.now()); -Infinity: at the next lookup. */
  private fileCheckedAt = -Infinity;
  private watcher?: fs.FSWatcher;
  private watching = false;
  private fetchedAt = 0;
  /** When a remote JWKS is next due (sooner after a failed fetch). */
  private nextFetchAt = 0;
  private inflight?: Promise<void>;

  /** The JWKS's file or URL, and whether it is a URL: fixed for the process's life, read once. */
  private readonly source: string;
  private readonly remote: boolean;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.source = config.jwksSource;
    this.remote = /^https?:\/\//i.test(this.source);
  }

  /** The verification key for a token's `kid` (or the current key when the token names none). */
  async keyFor(kid: string | undefined): Promise<KeyObject> {
    await this.refresh(false);
    let accepted = acceptedKeys(this.keys, this.clock.now());
    if (kid !== undefined && this.remote && !this.keys.some((k) => k.kid === kid)) {
      if (Date.now() - this.fetchedAt > UNKNOWN_KID_REFETCH_MS) {
        await this.refresh(true);
        accepted = acceptedKeys(this.keys, this.clock.now());
      }
    }
    const chosen = kid === undefined ? accepted[accepted.length - 1] : accepted.find((k) => k.kid === kid);
    if (chosen) return chosen.key;
    if (kid === undefined) throw new KeyNotAccepted('the token names no kid and no key is current');
    const known = this.keys.find((k) => k.kid === kid);
    if (!known) throw new KeyNotAccepted(`unknown signing key "${kid}"`);
    if (known.activatedAt.getTime() > this.clock.now().getTime()) {
      throw new KeyNotAccepted(`signing key "${kid}" is not active yet`);
    }
    throw new KeyNotAccepted(`signing key "${kid}" was rotated out more than 24 h ago`);
  }

  /** Kids currently accepted, newest last (for operators and tests). */
  async acceptedKids(): Promise<string[]> {
    await this.refresh(false);
    return acceptedKeys(this.keys, this.clock.now()).map((k) => k.kid);
  }

  async currentKid(): Promise<string | undefined> {
    await this.refresh(false);
    return currentKey(this.keys, this.clock.now())?.kid;
  }

  private async refresh(force: boolean): Promise<void> {
    if (this.remote) {
      if (!force && Date.now() < this.nextFetchAt) return;
      this.inflight ??= this.fetchRemote().finally(() => (this.inflight = undefined));
      // The first load must finish; later refreshes of a stale cache must too, so a revocation
      // (a key removed from the document) takes effect on the very next request after the TTL.
      await this.inflight;
      return;
    }
    this.watchFile();
    if (performance.now() - this.fileCheckedAt < JWKS_FILE_CHECK_MS) return;
    this.readFileIfChanged();
  }

  onModuleDestroy(): void {
    this.watcher?.close();
  }

  /** Marks the file for a stat at the next lookup whenever its directory reports a change to it. */
  private watchFile(): void {
    if (this.watching) return;
    this.watching = true;
    const name = path.basename(this.source);
    try {
      this.watcher = fs.watch(path.dirname(this.source), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) this.fileCheckedAt = -Infinity;
      });
      // Without notices (the directory gone, a watch limit reached) the periodic stat still applies.
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined;
    }
  }

  private readFileIfChanged(): void {
    this.fileCheckedAt = performance.now();
    let stamp: string;
    try {
      const stat = fs.statSync(this.source);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      if (this.fileStamp !== 'missing')
        this.logger.error(`gateway JWKS ${this.source} cannot be read; refusing all tokens`);
      this.keys = [];
      this.fileStamp = 'missing';
      return;
    }
    if (stamp === this.fileStamp) return;
    try {
      this.install(JSON.parse(fs.readFileSync(this.source, 'utf8')));
      this.fileStamp = stamp;
    } catch (error) {
      // A half-written file: keep the last good keys and look again on the next lookup.
      this.fileCheckedAt = -Infinity;
      this.logger.warn(`gateway JWKS ${this.source} is not valid JSON yet: ${(error as Error).message}`);
    }
  }

  private async fetchRemote(): Promise<void> {
    try {
      // A redirect is not followed: the keys come from the configured origin or from nowhere.
      const response = await fetch(this.source, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      if (response.status >= 300 && response.status < 400) {
        throw new Error(`HTTP ${response.status}: redirects are not followed (configure the final URL)`);
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.install(await response.json());
      this.fetchedAt = Date.now();
      this.nextFetchAt = this.fetchedAt + this.config.jwksRefreshSeconds * 1000;
    } catch (error) {
      // Keep the last good keys and try again soon; without any, every token is refused meanwhile.
      this.logger.error(`gateway JWKS ${this.source} could not be fetched: ${(error as Error).message}`);
      this.nextFetchAt = Date.now() + UNKNOWN_KID_REFETCH_MS;
    }
  }

  private install(document: unknown): void {
    const { keys, problems } = parseJwks(document);
    for (const problem of problems) this.logger.warn(`gateway JWKS: ${problem}`);
    this.keys = keys;
  }
}
