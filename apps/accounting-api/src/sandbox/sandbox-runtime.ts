import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  type RunningSandbox,
  type SandboxControl,
} from '@app/sandbox';
import type { AppConfig } from '../config/app-config';

/**
 * The Tripletex and Fiken sandboxes, run inside the service when PROVIDER_SANDBOX is on (in
 * development by default without provider credentials; in production only when set explicitly): the adapters are pointed at them with the sandbox's own credentials, so that every endpoint
 * answers on a fresh machine. Off, this holds nothing.
 */
@Injectable()
export class SandboxRuntime implements OnApplicationShutdown {
  private constructor(
    readonly running: RunningSandbox | null,
    readonly control: SandboxControl | null,
  ) {}

  static async start(config: AppConfig): Promise<SandboxRuntime> {
    if (!config.providerSandbox) return new SandboxRuntime(null, null);
    // A production instance serves no control API: nobody may reset it, inject faults or read its
    // credentials over HTTP. The service itself uses `control` in-process.
    const sandbox = createSandbox({ controlApi: !config.production });
    const running = await sandbox.start(config.providerSandboxPort);
    return new SandboxRuntime(running, sandbox.control);
  }

  /** The sandbox's application credentials (they open only the sandbox). */
  static readonly credentials = {
    tripletexConsumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
    fikenClientId: SANDBOX_FIKEN_CLIENT_ID,
    fikenClientSecret: SANDBOX_FIKEN_CLIENT_SECRET,
  };

  async onApplicationShutdown(): Promise<void> {
    await this.running?.close();
  }
}
