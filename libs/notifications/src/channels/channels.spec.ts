import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { type CompanySettings, CompanySettingsStore, DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import {
  aChainEvent,
  describeCompanyChannelDirectoryContract,
  InMemoryCompanyRepository,
  InMemoryCompanySettingsStore,
  InMemoryEventStore,
  ManualClock,
  type ChannelTargets,
} from '@app/testing';
import { WebhookSecret } from '../delivery/webhook-secret';
import { WebhookSecretSource } from '../ports/webhook-secret-source.port';
import { DerivedWebhookSecretSource, deriveWebhookSecretText } from './derived-webhook-secret-source';
import { SettingsChannelDirectory } from './settings-channel-directory';

class StubSettings extends CompanySettingsStore {
  constructor(private readonly byCompany: Record<string, CompanySettings>) {
    super();
  }
  override async get(companyId: string): Promise<CompanySettings> {
    return this.byCompany[companyId] ?? DEFAULT_COMPANY_SETTINGS;
  }
  override async save(): Promise<void> {
    throw new Error('not used');
  }
}

class StubSecrets extends WebhookSecretSource {
  override async secretFor(companyId: string): Promise<WebhookSecret | null> {
    return companyId === 'acme' ? WebhookSecret.from('acme-secret') : null;
  }
}

describeCompanyChannelDirectoryContract('SettingsChannelDirectory', () => {
  const events = new InMemoryEventStore();
  const companies = new InMemoryCompanyRepository(new ManualClock(), { events });
  const settings = new InMemoryCompanySettingsStore();
  const directory = new SettingsChannelDirectory(companies, settings, new DerivedWebhookSecretSource(randomBytes(32)));
  const saveTargets = async (companyId: string, targets: ChannelTargets) => {
    await settings.save(companyId, { ...(await settings.get(companyId)), ...targets });
  };
  return {
    directory,
    addCompany: async (companyId, targets) => {
      await companies.create({ id: companyId, name: `Company ${companyId}` });
      await saveTargets(companyId, targets);
    },
    changeTargets: saveTargets,
    deleteCompany: async (companyId) => {
      // With an audit event, so that the record and its settings stay, as they do in the database.
      const chain = randomUUID();
      await events.append([aChainEvent(companyId, chain, 1)]);
      await companies.delete({
        id: randomUUID(),
        companyId,
        companyName: `Company ${companyId}`,
        actor: 'ops@example.no',
        deletedAt: new Date('2026-11-20T12:00:00.000Z'),
      });
    },
  };
});

describe('SettingsChannelDirectory', () => {
  it("signs with the secret the company's source gives, and with none when it gives none", async () => {
    const companies = new InMemoryCompanyRepository(new ManualClock());
    await companies.create({ id: 'acme', name: 'Acme AS' });
    await companies.create({ id: 'other', name: 'Other AS' });
    const directory = new SettingsChannelDirectory(
      companies,
      new StubSettings({
        acme: {
          ...DEFAULT_COMPANY_SETTINGS,
          reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
          gatewayCallback: { kind: 'webhook', url: 'https://gateway.example/callback' },
        },
      }),
      new StubSecrets(),
    );

    const acme = await directory.channelsOf('acme');
    expect(acme).toMatchObject({
      reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
      invoicesChannel: null,
      gatewayCallback: { kind: 'webhook', url: 'https://gateway.example/callback' },
    });
    expect(acme?.webhookSecret?.hmacSha256Hex('x')).toBe(createHmac('sha256', 'acme-secret').update('x').digest('hex'));
    expect(await directory.channelsOf('other')).toMatchObject({ reviewChannel: null, webhookSecret: null });
  });
});

describe('DerivedWebhookSecretSource', () => {
  const master = Buffer.alloc(32, 7);

  it('derives a distinct, stable secret per company from the master key', async () => {
    const source = new DerivedWebhookSecretSource(master);
    const text = deriveWebhookSecretText(master, 'acme');

    expect(text).toMatch(/^[0-9a-f]{64}$/);
    expect(deriveWebhookSecretText(master, 'acme')).toBe(text);
    expect(deriveWebhookSecretText(master, 'beta')).not.toBe(text);
    expect(deriveWebhookSecretText(Buffer.alloc(32, 8), 'acme')).not.toBe(text);
    const secret = await source.secretFor('acme');
    expect(secret.hmacSha256Hex('body')).toBe(createHmac('sha256', text).update('body').digest('hex'));
  });

  it('shows neither the master key nor a derived secret when printed', async () => {
    const source = new DerivedWebhookSecretSource(master);
    const secret = await source.secretFor('acme');
    const printed = [
      inspect(source),
      JSON.stringify(source),
      inspect(secret),
      JSON.stringify({ secret }),
      `${secret}`,
    ].join(' ');

    expect(printed).not.toContain(deriveWebhookSecretText(master, 'acme'));
    expect(printed).not.toContain(master.toString('hex'));
    expect(printed).not.toContain('7, 7, 7');
  });

  it('refuses a master key shorter than 32 bytes', () => {
    expect(() => new DerivedWebhookSecretSource(Buffer.alloc(16))).toThrow(RangeError);
  });
});
