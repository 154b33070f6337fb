import { DEFAULT_COMPANY_SETTINGS, type ProviderConnectionRecord } from '@app/domain';
import { renderCompanyPage, type CompanyPageView } from './company.view';
import { EMPTY_EMPLOYEE_FORM } from './console-employees';
import type { ConsoleViewer } from './console-page';

const viewer: ConsoleViewer = {
  identity: {
    actor: 'admin@example.no',
    company: 'acme',
    channel: 'web',
    role: 'admin',
    permissions: ['config'],
    tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
  },
  csrf: 'the-csrf',
  companyName: 'Acme AS',
  locale: 'en-GB',
};

const connection: ProviderConnectionRecord = {
  companyId: 'acme',
  provider: 'fiken',
  status: 'needs_reauthorization',
  externalCompanyId: 'acme-as',
  externalCompanyName: 'Acme <AS>',
  accessTokenExpiresAt: null,
  reauthorizationReason: 'the grant was <revoked>',
  connectedBy: 'admin@example.no',
  connectedAt: new Date('2026-11-01T09:00:00Z'),
  updatedAt: new Date('2026-11-01T09:00:00Z'),
};

function render(view: Partial<CompanyPageView>): string {
  return renderCompanyPage({
    viewer,
    overview: {
      company: { id: 'acme', name: 'Acme AS', createdAt: new Date('2026-01-01T00:00:00Z') },
      connection: null,
      context: null,
      mappedEmployees: 0,
    },
    settings: DEFAULT_COMPANY_SETTINGS,
    employees: { items: [], nextCursor: null },
    shownEmployees: 200,
    context: null,
    form: EMPTY_EMPLOYEE_FORM,
    ...view,
  }).value;
}

describe('renderCompanyPage', () => {
  it('offers to connect a provider when none is connected, and cannot refresh the chart', () => {
    const page = render({});
    expect(page).toContain('data-connection="none"');
    expect(page).toContain('action="/console/company/connect/fiken"');
    expect(page).toContain('action="/console/company/connect/tripletex"');
    expect(page).toMatch(/<button type="submit"\s+disabled>Fetch the chart again<\/button>/);
    expect(page).toContain('No employee is mapped yet.');
  });

  it('shows a connection that needs re-authorisation, escaping what the provider said', () => {
    const page = render({
      overview: {
        company: { id: 'acme', name: 'Acme AS', createdAt: new Date('2026-01-01T00:00:00Z') },
        connection,
        context: null,
        mappedEmployees: 0,
      },
    });
    expect(page).toContain('data-connection="needs_reauthorization"');
    expect(page).toContain('Acme &lt;AS&gt;');
    expect(page).toContain('the grant was &lt;revoked&gt;');
    expect(page).toMatch(/Reconnect\s+Fiken/);
  });

  it('fills the settings form with the current values, escaped, under the notice and the connect prompt', () => {
    const page = render({
      settings: {
        ...DEFAULT_COMPANY_SETTINGS,
        reviewChannel: { kind: 'webhook', url: 'https://hooks.example/a?b="c"' },
      },
      notice: 'Settings saved.',
      prompt: 'fiken',
    });
    expect(page).toContain('value="https://hooks.example/a?b=&quot;c&quot;"');
    expect(page).toContain('<p class="notice" role="status">Settings saved.</p>');
    expect(page).toContain('data-connect-prompt="fiken"');
    expect(page).toContain('name="_csrf" value="the-csrf"');
  });
});
