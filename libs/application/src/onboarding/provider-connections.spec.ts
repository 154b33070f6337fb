import { ProviderConnectionRepository, type ProviderConnectionRecord, type TripletexConnection } from '@app/domain';
import type { ProviderEndpoints } from './provider-endpoints';
import { ProviderConnections } from './provider-connections';

const endpoints = {
  tripletex: { apiUrl: 'https://tripletex.example/v2', consentUrl: null },
  fiken: {
    apiUrl: 'https://fiken.example/api/v2',
    authorizeUrl: '',
    tokenUrl: 'https://fiken.example/token',
    clientId: 'c',
  },
} as unknown as ProviderEndpoints;

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
  const repository = { employeeToken: async () => 'employee-token' } as unknown as ProviderConnectionRepository;
  const connections = new ProviderConnections(repository, endpoints);

  it('versions the credentials by when they were connected, and reads the token only when asked', async () => {
    const first = connections.connectionOf(record('2026-11-20T10:00:00.000Z')) as TripletexConnection;
    const again = connections.connectionOf(record('2026-11-20T10:00:00.000Z')) as TripletexConnection;
    const reconnected = connections.connectionOf(record('2026-11-21T08:30:00.000Z')) as TripletexConnection;

    expect(first.credentials.version).toBe(again.credentials.version);
    expect(reconnected.credentials.version).not.toBe(first.credentials.version);
    await expect(first.credentials.employeeToken()).resolves.toBe('employee-token');
  });
});
