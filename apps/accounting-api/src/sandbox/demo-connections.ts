import { Injectable, Logger } from '@nestjs/common';
import {
  Clock,
  CompanyContextStore,
  CompanyRepository,
  ProviderConnectionRepository,
  type ProviderConnectionRecord,
} from '@app/domain';
import { CompanyContextService } from '@app/application';
import { SANDBOX_FIKEN_DEMO_SLUG } from '@app/sandbox';
import { SandboxRuntime } from './sandbox-runtime';

const DEMO_TRIPLETEX_COMPANY = 'demo';
const DEMO_FIKEN_COMPANY = 'demo-fiken';

/**
 * Sandbox mode's first-start seeding (`npm start`): company `demo` connected to the Tripletex
 * sandbox (its company 0) and `demo-fiken` to the Fiken sandbox (its demo company), each with its
 * context fetched. Safe on every start: the Tripletex token is the sandbox's fixed one; Fiken grants
 * live only as long as the in-process sandbox, so `demo-fiken` gets fresh tokens each start.
 */
@Injectable()
export class DemoConnections {
  private readonly logger = new Logger(DemoConnections.name);

  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly companies: CompanyRepository,
    private readonly connections: ProviderConnectionRepository,
    private readonly contexts: CompanyContextStore,
    private readonly context: CompanyContextService,
    private readonly clock: Clock,
  ) {}

  async seed(): Promise<void> {
    const control = this.sandbox.control;
    if (!control) return;
    await this.companies.create({ id: DEMO_TRIPLETEX_COMPANY, name: 'Demo AS' });
    await this.companies.create({ id: DEMO_FIKEN_COMPANY, name: 'Demo Fiken AS' });

    const tripletex = control.for('tripletex').company(0);
    let record = await this.connections.find(DEMO_TRIPLETEX_COMPANY);
    if (record?.provider !== 'tripletex' || record.status !== 'connected') {
      record = await this.connections.connect({
        companyId: DEMO_TRIPLETEX_COMPANY,
        grant: { provider: 'tripletex', secret: { kind: 'token', token: tripletex.employeeToken } },
        externalCompanyId: String(tripletex.companyId),
        externalCompanyName: tripletex.name,
        connectedBy: 'sandbox@demo.no',
      });
      this.logger.log(`connected "${DEMO_TRIPLETEX_COMPANY}" to the Tripletex sandbox`);
    }
    await this.ensureContext(record);

    const issued = control.for('fiken').issueTokens(SANDBOX_FIKEN_DEMO_SLUG);
    const fiken = control.for('fiken').company(0);
    const fikenRecord = await this.connections.connect({
      companyId: DEMO_FIKEN_COMPANY,
      grant: {
        provider: 'fiken',
        secret: {
          kind: 'oauth',
          tokens: {
            accessToken: issued.access_token,
            refreshToken: issued.refresh_token,
            expiresAt: this.clock.now().getTime() + issued.expires_in * 1000,
          },
        },
      },
      externalCompanyId: fiken.slug,
      externalCompanyName: fiken.name,
      connectedBy: 'sandbox@demo.no',
    });
    this.logger.log(`connected "${DEMO_FIKEN_COMPANY}" to the Fiken sandbox`);
    await this.ensureContext(fikenRecord);
  }

  private async ensureContext(record: ProviderConnectionRecord): Promise<void> {
    const cached = await this.contexts.get(record.companyId);
    if (cached?.provider === record.provider) return;
    try {
      await this.context.fetch(record);
    } catch (error) {
      this.logger.warn(`could not fetch the context of "${record.companyId}": ${(error as Error).message}`);
    }
  }
}
