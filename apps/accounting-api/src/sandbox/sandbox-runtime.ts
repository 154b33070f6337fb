import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSandbox, sandboxUrls, type RunningSandbox, type SandboxControl, type SandboxUrls } from '@app/sandbox';
import type { AppConfig } from '../config/app-config';

/** What DATA_DIR/sandbox.json records: which service process runs the sandbox, and where it listens. */
interface SandboxRecord {
  pid: number;
  hostname: string;
  /** `http://host:port`, the root of both providers' APIs. */
  url: string;
}

const recordPath = (dataDir: string): string => path.join(dataDir, 'sandbox.json');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/** The sandbox a live service on this host records in DATA_DIR, or null (none, or its process is gone). */
function runningServiceSandbox(dataDir: string): SandboxUrls | null {
  try {
    const record = JSON.parse(fs.readFileSync(recordPath(dataDir), 'utf8')) as SandboxRecord;
    return record.hostname === os.hostname() && isAlive(record.pid) ? sandboxUrls(record.url) : null;
  } catch {
    return null; // no record, or a half-written one
  }
}

/**
 * The Tripletex and Fiken sandboxes, run inside the service when PROVIDER_SANDBOX is on (in
 * development by default without provider credentials; in production only when set explicitly): the adapters are pointed at them with the sandbox's own credentials, so that every endpoint
 * answers on a fresh machine. Off, this holds nothing.
 *
 * The sandboxes keep their state (issued grants, bookings) in memory, so there is one per running
 * service: the service records its URLs in DATA_DIR/sandbox.json, and a CLI command beside it
 * (`role: 'cli'`) uses that one — over HTTP, without `control` — instead of starting its own, whose
 * grants the service's connections would not hold. With no service running, the command starts
 * one for its own duration.
 */
@Injectable()
export class SandboxRuntime implements OnApplicationShutdown {
  private constructor(
    readonly running: RunningSandbox | null,
    readonly control: SandboxControl | null,
    /** The DATA_DIR whose sandbox.json this process wrote. */
    private readonly recordedIn: string | null = null,
  ) {}

  static async start(config: AppConfig, role: 'service' | 'cli' = 'service'): Promise<SandboxRuntime> {
    if (!config.providerSandbox) return new SandboxRuntime(null, null);
    if (role === 'cli') {
      const urls = runningServiceSandbox(config.dataDir);
      if (urls) return new SandboxRuntime({ ...urls, close: () => Promise.resolve() }, null);
    }
    // A production instance serves no control API: nobody may reset it, inject faults or read its
    // credentials over HTTP. The service itself uses `control` in-process.
    const sandbox = createSandbox({ controlApi: !config.production });
    const running = await sandbox.start(config.providerSandboxPort);
    if (role === 'cli') return new SandboxRuntime(running, sandbox.control);
    const record: SandboxRecord = { pid: process.pid, hostname: os.hostname(), url: running.url };
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(recordPath(config.dataDir), JSON.stringify(record), { mode: 0o600 });
    return new SandboxRuntime(running, sandbox.control, config.dataDir);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.recordedIn !== null) {
      const file = recordPath(this.recordedIn);
      try {
        const record = JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxRecord;
        if (record.pid === process.pid && record.url === this.running?.url) fs.rmSync(file);
      } catch {
        // gone already, or another service's now
      }
    }
    await this.running?.close();
  }
}
