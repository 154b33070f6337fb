import { createHash } from 'node:crypto';
import { ProviderError, type ProviderKind } from '@app/domain';

/** No list the adapters read has more pages than this; a loop that reaches it is stopped. */
export const MAX_PAGES = 10_000;

/**
 * Bounds a paging loop: a provider that ignores the paging parameters answers every request with
 * the same page, and a loop that waits for a short or empty page would read forever. `check` is
 * called with each page before it is used; it throws (a transient `unavailable`: the provider may
 * honour paging again later) when
 * - a non-empty page repeats the page before it (its elements, byte for byte),
 * - the page lies beyond the total the provider announced (page count, result count), or
 * - the loop has read `MAX_PAGES` pages.
 */
export class PageGuard {
  private previous: string | null = null;
  private read = 0;

  constructor(
    private readonly provider: ProviderKind,
    private readonly path: string,
    private readonly maxPages = MAX_PAGES,
  ) {}

  /**
   * `index` is the page's number from 0 (for the messages); `beyondTotal` says whether the provider
   * announced fewer pages or elements than this page implies.
   */
  check(items: readonly unknown[], index: number, beyondTotal = false): void {
    this.read += 1;
    if (items.length > 0) {
      const digest = createHash('sha256').update(JSON.stringify(items)).digest('hex');
      if (digest === this.previous) {
        this.fail(`page ${index + 1} of ${this.path} repeats the page before it: the provider does not honour paging`);
      }
      this.previous = digest;
      if (beyondTotal) {
        this.fail(`page ${index + 1} of ${this.path} lies beyond the total the provider announced`);
      }
    }
    if (this.read > this.maxPages) {
      this.fail(`${this.path} has more than ${this.maxPages} pages: the read was stopped`);
    }
  }

  private fail(message: string): never {
    throw new ProviderError(this.provider, 'unavailable', message);
  }
}
