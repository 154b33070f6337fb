import { testProviderRegistry } from '@app/testing';
import { ProviderConnectionRepository, type ProviderConnectionRecord } from '@app/domain';
import type { TripletexConnection } from '@app/providers';
import { ProviderConnections } from './provider-connections';

const record = (connectedAt: string): ProviderConnectionRecord => ({
  companyId: 'acme',
  provider: 'tripletex',
  status: 'connected',
  externalCompanyId: '42',
  externalCompanyName: 'Acme AS',
  accessTokenExpiresAt: null,
  reauthorizationReason: null,
  connectedBy: 'admin@acme.no',
  connectedAt: new Date(connectedAt),
  updatedAt: new Date(connectedAt),
});

describe('ProviderConnections.connectionOf (Tripletex)', () => {
  const repository = { storedToken: async () => 'employee-token' } as unknown as ProviderConnectionRepository;
  const connections = new ProviderConnections(repository, testProviderRegistry());

  it('versions the credentials by when they were connected, and reads the token only when asked', async () => {
    const first = connections.connectionOf(record('2026-11-20T10:00:00.000Z')) as TripletexConnection;
    const again = connections.connectionOf(record('2026-11-20T10:00:00.000Z')) as TripletexConnection;
    const reconnected = connections.connectionOf(record('2026-11-21T08:30:00.000Z')) as TripletexConnection;

    expect(first.credentials.version).toBe(again.credentials.version);
    expect(reconnected.credentials.version).not.toBe(first.credentials.version);
    await expect(first.credentials.employeeToken()).resolves.toBe('employee-token');
  });
});
