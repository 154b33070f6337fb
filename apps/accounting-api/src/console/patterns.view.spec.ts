import { aPattern } from '@app/testing';
import type { ConsoleViewer } from './console-page';
import { renderPatternsPage, type PatternsPageView } from './patterns.view';

const viewer: ConsoleViewer = {
  identity: {
    actor: 'kari@example.no',
    company: 'acme',
    channel: 'web',
    role: 'accountant',
    permissions: ['rules'],
    tokenExpiresAt: new Date('2026-11-20T10:00:00Z'),
  },
  csrf: 'the-csrf',
  companyName: 'Acme AS',
  locale: 'en-GB',
};

function render(view: Partial<PatternsPageView>): string {
  return renderPatternsPage({
    viewer,
    merchant: '',
    patterns: { items: [], nextCursor: null },
    suggestions: { items: [], nextCursor: null, import: null },
    context: null,
    done: '',
    count: null,
    ...view,
  }).value;
}

describe('renderPatternsPage', () => {
  it('says when there is no pattern and no suggestion, and that the history has not been read', () => {
    const page = render({});
    expect(page).toContain('No suggestion waits for confirmation.');
    expect(page).toContain('<p class="empty">No pattern.</p>');
    expect(page).toContain('data-import="none"');
  });

  it('gives each pattern an edit and a retire form with the CSRF token, its merchant escaped', () => {
    const pattern = aPattern({ merchantName: 'Kiosk <b>Bar</b>' });
    const page = render({ patterns: { items: [pattern], nextCursor: 'next-1' } });
    expect(page).toContain(`action="/console/patterns/${pattern.id}/edit"`);
    expect(page).toContain(`action="/console/patterns/${pattern.id}/retire"`);
    expect(page).toContain('name="_csrf" value="the-csrf"');
    expect(page).toContain('Kiosk &lt;b&gt;Bar&lt;/b&gt;');
    expect(page).not.toContain('<b>Bar</b>');
    expect(page).toContain('cursor=next-1');
  });

  it('shows the learnt VAT treatment in words and the supplier, and lets both be edited', () => {
    const reverse = aPattern({ vatTreatment: 'reverse_charge', supplierOrganizationNumber: '923609016' });
    const unknown = aPattern({ vatTreatment: null, merchantName: 'Figma' });
    const page = render({ patterns: { items: [reverse, unknown], nextCursor: null } });
    const item = (id: string) =>
      page.slice(page.indexOf(`data-pattern="${id}"`), page.indexOf('</li>', page.indexOf(`data-pattern="${id}"`)));

    const first = item(reverse.id);
    expect(first).toContain('<span data-vat-treatment="reverse_charge">Reverse charge</span>');
    expect(first).toContain('data-supplier="923609016"');
    expect(first).toMatch(/<option value="reverse_charge" selected>\s*Reverse charge\s*<\/option>/);
    expect(first).toMatch(/<option value="domestic" >\s*Domestic, deductible\s*<\/option>/);
    expect(first).toMatch(/name="supplierOrganizationNumber"\s+value="923609016"/);

    const second = item(unknown.id);
    expect(second).toContain('treatment not known yet (read as domestic, deductible)');
    expect(second).toMatch(/<option value="" selected>Not known yet<\/option>/);
    expect(second).not.toContain('data-supplier=');
    expect(second).not.toMatch(/<option value="(domestic|foreign_no_deduction|reverse_charge)" selected>/);
  });

  it('offers to confirm every suggestion shown when there are several', () => {
    const suggestions = [aPattern({ verified: false }), aPattern({ verified: false, merchantName: 'Elkjøp' })];
    const page = render({ suggestions: { items: suggestions, nextCursor: null, import: null } });
    expect(page).toContain('Confirm all 2 shown');
    for (const s of suggestions) expect(page).toContain(`data-suggestion="${s.id}"`);
  });

  it('tells how many suggestions were confirmed, and echoes the search escaped', () => {
    const page = render({ done: 'confirmed', count: 3, merchant: '"><script>' });
    expect(page).toContain('3 suggestions confirmed: they are confirmed patterns now.');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;"');
    expect(page).not.toContain('"><script>');
  });
});
