import { MAX_RECEIPT_BYTES } from '@app/domain';

/**
 * What the use cases take from the service's configuration. Used as the injection token of the
 * options the app module passes to `ApplicationModule.forRoot`.
 */
export class ApplicationOptions {
  /** Largest receipt accepted, decoded (RECEIPT_MAX_BYTES). The domain caps it at 7 MiB. */
  readonly receiptMaxBytes: number;
  /**
   * Production refuses notification targets that are not https or that name a loopback, private,
   * link-local or otherwise internal host; development allows local http receivers.
   */
  readonly strictWebhookTargets: boolean;

  constructor(options: Partial<ApplicationOptions> = {}) {
    this.receiptMaxBytes = Math.min(options.receiptMaxBytes ?? MAX_RECEIPT_BYTES, MAX_RECEIPT_BYTES);
    this.strictWebhookTargets = options.strictWebhookTargets ?? true;
  }
}
