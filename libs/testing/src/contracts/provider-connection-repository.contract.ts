import {
  ProviderReauthorizationRequired,
  type NewProviderConnection,
  type ProviderConnectionRepository,
} from '@app/domain';
import { companies, type ContractOptions } from './contract-support';

const EXPIRES_AT = Date.parse('2026-11-20T11:00:00.000Z');

/**
 * The ProviderConnectionRepository contract: one connection per company, replaced by a new one
 * (which clears a re-authorisation mark); records never carry a secret; the Tripletex employee token
 * is given out only while that connection works; the first re-authorisation reason is kept.
 */
export function describeProviderConnectionRepositoryContract(
  name: string,
  factory: () => ProviderConnectionRepository | Promise<ProviderConnectionRepository>,
  options: ContractOptions = {},
): void {
  describe(`ProviderConnectionRepository contract: ${name}`, () => {
    let connections: ProviderConnectionRepository;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      connections = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    const tripletex = (companyId = company, employeeToken = 'employee-token-secret'): NewProviderConnection => ({
      companyId,
      grant: { provider: 'tripletex', secret: { kind: 'token', token: employeeToken } },
      externalCompanyId: '4711',
      externalCompanyName: 'Acme AS (Tripletex)',
      connectedBy: 'admin@example.no',
    });
    const fiken = (companyId = company): NewProviderConnection => ({
      companyId,
      grant: {
        provider: 'fiken',
        secret: {
          kind: 'oauth',
          tokens: { accessToken: 'access-secret', refreshToken: 'refresh-secret', expiresAt: EXPIRES_AT },
        },
      },
      externalCompanyId: 'acme-as',
      externalCompanyName: null,
      connectedBy: 'owner@example.no',
    });

    it('finds no connection for a company that never connected', async () => {
      expect(await connections.find(company)).toBeNull();
    });

    it('stores a Tripletex connection and returns it without its secret', async () => {
      const record = await connections.connect(tripletex());

      expect(record).toEqual({
        companyId: company,
        provider: 'tripletex',
        status: 'connected',
        externalCompanyId: '4711',
        externalCompanyName: 'Acme AS (Tripletex)',
        accessTokenExpiresAt: null,
        reauthorizationReason: null,
        connectedBy: 'admin@example.no',
        connectedAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(await connections.find(company)).toEqual(record);
      expect(JSON.stringify(record)).not.toContain('secret');
      expect(await connections.find(otherCompany)).toBeNull();
    });

    it('stores a Fiken connection with the expiry of its access token, and no secret', async () => {
      const record = await connections.connect(fiken());

      expect(record).toMatchObject({
        provider: 'fiken',
        status: 'connected',
        externalCompanyId: 'acme-as',
        accessTokenExpiresAt: new Date(EXPIRES_AT),
      });
      expect(JSON.stringify(await connections.find(company))).not.toContain('secret');
    });

    // Which kinds exist is the provider registry's to say, not the store's: a provider registered
    // after Tripletex and Fiken stores its connections without a schema change.
    it('stores the connections of any provider kind, by the kind of secret it holds', async () => {
      await connections.connect({
        companyId: company,
        grant: { provider: 'kassebok', secret: { kind: 'token', token: 'kassebok-token' } },
        externalCompanyId: 'acme',
        externalCompanyName: null,
        connectedBy: 'admin@example.no',
      });
      await connections.connect({
        companyId: otherCompany,
        grant: {
          provider: 'kassebok',
          secret: { kind: 'oauth', tokens: { accessToken: 'a', refreshToken: 'r', expiresAt: EXPIRES_AT } },
        },
        externalCompanyId: 'other',
        externalCompanyName: null,
        connectedBy: 'admin@example.no',
      });

      expect(await connections.find(company)).toMatchObject({ provider: 'kassebok', status: 'connected' });
      expect(await connections.find(otherCompany)).toMatchObject({
        provider: 'kassebok',
        accessTokenExpiresAt: new Date(EXPIRES_AT),
      });
      expect(await connections.storedToken(company, 'kassebok')).toBe('kassebok-token');
      await expect(connections.storedToken(company, 'tripletex')).rejects.toBeInstanceOf(
        ProviderReauthorizationRequired,
      );
    });

    it('gives out the Tripletex employee token of the company, and none of another provider or company', async () => {
      await connections.connect(tripletex(company, 'token-of-acme'));
      await connections.connect(fiken(otherCompany));

      expect(await connections.storedToken(company, 'tripletex')).toBe('token-of-acme');
      await expect(connections.storedToken(otherCompany, 'tripletex')).rejects.toBeInstanceOf(
        ProviderReauthorizationRequired,
      );
    });

    it('marks a connection as needing re-authorisation once, keeping the first reason, and then gives out no token', async () => {
      await connections.connect(tripletex());

      await connections.markNeedsReauthorization(company, 'the provider refused the token');
      await connections.markNeedsReauthorization(company, 'refused again');

      expect(await connections.find(company)).toMatchObject({
        status: 'needs_reauthorization',
        reauthorizationReason: 'the provider refused the token',
      });
      await expect(connections.storedToken(company, 'tripletex')).rejects.toBeInstanceOf(
        ProviderReauthorizationRequired,
      );
    });

    it('changes nothing when marking a company without a connection', async () => {
      await connections.markNeedsReauthorization(company, 'refused');

      expect(await connections.find(company)).toBeNull();
    });

    it('replaces the connection on a new one, of any provider, clearing the re-authorisation mark', async () => {
      await connections.connect(tripletex());
      await connections.markNeedsReauthorization(company, 'refused');

      const replaced = await connections.connect(fiken());

      expect(replaced).toMatchObject({ provider: 'fiken', status: 'connected', reauthorizationReason: null });
      expect(await connections.find(company)).toEqual(replaced);
      await expect(connections.storedToken(company, 'tripletex')).rejects.toBeInstanceOf(
        ProviderReauthorizationRequired,
      );
      await connections.connect(tripletex(company, 'new-token'));
      expect(await connections.storedToken(company, 'tripletex')).toBe('new-token');
    });
  });
}
