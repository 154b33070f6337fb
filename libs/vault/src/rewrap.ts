import { Kms, isRotatableKms } from './ports/kms.port';
import { WrappedDekRepository } from './ports/wrapped-dek-repository.port';

export interface RewrapResult {
  /** The KEK every DEK is now wrapped under. */
  readonly kekId: string;
  /** DEKs examined. */
  readonly total: number;
  /** DEKs re-wrapped under `kekId`. */
  readonly rewrapped: number;
  /** DEKs already under `kekId`, left as they were. */
  readonly alreadyCurrent: number;
  /** DEKs changed or deleted by someone else meanwhile (e.g. a company deleted), left alone. */
  readonly skipped: number;
  /** Companies whose DEK could not be unwrapped or re-wrapped; the rest were still processed. */
  readonly failed: readonly string[];
}

export interface RewrapOptions {
  /** Re-wrap even DEKs already under the current KEK. */
  readonly force?: boolean;
  /** Keyset page size when walking the repository (default 100). */
  readonly pageSize?: number;
  /** Called after each DEK is examined: how many so far, and whose it was. */
  readonly onProgress?: (examined: number, companyId: string) => void;
}

/**
 * Re-wraps every company's DEK under the KMS's current KEK. The DEKs themselves do not change, so
 * no token ciphertext is touched and every token stays readable. A company that fails is reported
 * in `failed` and the walk goes on. Safe to run again: DEKs already under the current KEK are skipped.
 */
export async function rewrapAll(
  kms: Kms,
  repository: WrappedDekRepository,
  options: RewrapOptions = {},
): Promise<RewrapResult> {
  const kekId = await kms.currentKekId();
  const pageSize = options.pageSize ?? 100;
  let total = 0;
  let rewrapped = 0;
  let alreadyCurrent = 0;
  let skipped = 0;
  const failed: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await repository.listAfter(after, pageSize);
    for (const record of page) {
      total += 1;
      if (record.kekId === kekId && !options.force) {
        alreadyCurrent += 1;
        options.onProgress?.(total, record.companyId);
        continue;
      }
      let dek: Buffer | undefined;
      try {
        dek = await kms.unwrap(record, record.companyId);
        const next = await kms.wrap(dek, record.companyId);
        if (await repository.replaceWrapping(record.companyId, record, next)) rewrapped += 1;
        else skipped += 1;
      } catch {
        failed.push(record.companyId);
      } finally {
        dek?.fill(0);
        options.onProgress?.(total, record.companyId);
      }
    }
    if (page.length < pageSize) break;
    after = page[page.length - 1].companyId;
  }
  return { kekId, total, rewrapped, alreadyCurrent, skipped, failed };
}

/**
 * `kek rotate`: on a KMS this service rotates itself (the local keyring) adds a new KEK version
 * first; then re-wraps every DEK under the current KEK.
 */
export async function rotateKek(
  kms: Kms,
  repository: WrappedDekRepository,
  options: RewrapOptions = {},
): Promise<RewrapResult> {
  if (isRotatableKms(kms)) await kms.rotate();
  return rewrapAll(kms, repository, options);
}
