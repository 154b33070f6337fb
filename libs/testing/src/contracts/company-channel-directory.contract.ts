import type { CompanyChannelDirectory, CompanyChannels } from '@app/notifications';
import { uniqueCompanyId } from './contract-support';

/** The channel targets a company sets in its settings (`PUT /config/company`). */
export type ChannelTargets = Pick<CompanyChannels, 'reviewChannel' | 'invoicesChannel' | 'gatewayCallback'>;

export interface CompanyChannelDirectoryUnderTest {
  readonly directory: CompanyChannelDirectory;
  /** Creates the company, with these targets set (null: not set). */
  addCompany(companyId: string, targets: ChannelTargets): Promise<void>;
  /** Changes a company's targets, as a settings update does. */
  changeTargets(companyId: string, targets: ChannelTargets): Promise<void>;
  /** Deletes the company; like a company with audit events, its record (and settings) may stay. */
  deleteCompany(companyId: string): Promise<void>;
}

/**
 * The CompanyChannelDirectory contract: a company's channels are its current settings, with a
 * webhook signing key of its own; a company that set none has none; an unknown or deleted company
 * has no channels at all (null), so nothing more is delivered for it.
 */
export function describeCompanyChannelDirectoryContract(
  name: string,
  factory: () => CompanyChannelDirectoryUnderTest | Promise<CompanyChannelDirectoryUnderTest>,
): void {
  describe(`CompanyChannelDirectory contract: ${name}`, () => {
    let subject: CompanyChannelDirectoryUnderTest;
    let directory: CompanyChannelDirectory;

    const none: ChannelTargets = { reviewChannel: null, invoicesChannel: null, gatewayCallback: null };
    const configured: ChannelTargets = {
      reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/review' },
      invoicesChannel: { kind: 'webhook', url: 'https://erp.acme.example/invoices' },
      gatewayCallback: { kind: 'webhook', url: 'https://gateway.acme.example/callback' },
    };

    beforeEach(async () => {
      subject = await factory();
      directory = subject.directory;
    });

    it("gives a company's channel targets as its settings have them, and a webhook signing key", async () => {
      const company = uniqueCompanyId();
      await subject.addCompany(company, configured);

      const channels = await directory.channelsOf(company);

      expect(channels).toMatchObject(configured);
      expect(channels?.webhookSecret?.hmacSha256Hex('body')).toMatch(/^[0-9a-f]{64}$/);
    });

    it('gives a company that set no targets none', async () => {
      const company = uniqueCompanyId();
      await subject.addCompany(company, none);

      expect(await directory.channelsOf(company)).toMatchObject(none);
    });

    it('reads the settings at each lookup, so a corrected target applies to the next delivery', async () => {
      const company = uniqueCompanyId();
      await subject.addCompany(company, configured);
      await directory.channelsOf(company);

      const corrected: ChannelTargets = {
        ...configured,
        reviewChannel: { kind: 'webhook', url: 'https://review.acme.example/hook' },
        invoicesChannel: null,
      };
      await subject.changeTargets(company, corrected);

      expect(await directory.channelsOf(company)).toMatchObject(corrected);
    });

    it('gives each company its own targets and signing key', async () => {
      const [company, otherCompany] = [uniqueCompanyId(), uniqueCompanyId()];
      const theirTargets: ChannelTargets = {
        ...none,
        gatewayCallback: { kind: 'webhook', url: 'https://gateway.other.example/callback' },
      };
      await subject.addCompany(company, configured);
      await subject.addCompany(otherCompany, theirTargets);

      const mine = await directory.channelsOf(company);
      const theirs = await directory.channelsOf(otherCompany);

      expect(mine).toMatchObject(configured);
      expect(theirs).toMatchObject(theirTargets);
      expect(theirs?.webhookSecret?.hmacSha256Hex('body')).toMatch(/^[0-9a-f]{64}$/);
      expect(theirs?.webhookSecret?.hmacSha256Hex('body')).not.toBe(mine?.webhookSecret?.hmacSha256Hex('body'));
    });

    it('has no channels for an unknown company', async () => {
      expect(await directory.channelsOf(uniqueCompanyId())).toBeNull();
    });

    it('has no channels for a deleted company, whatever its settings said', async () => {
      const company = uniqueCompanyId();
      await subject.addCompany(company, configured);

      await subject.deleteCompany(company);

      expect(await directory.channelsOf(company)).toBeNull();
    });
  });
}
