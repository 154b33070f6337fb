import type { Permission, Role } from '@app/domain';
import type { ConsoleViewer } from './console-page';
import { consoleText } from './console-text';

function viewer(role: Role, permissions: Permission[], locale: ConsoleViewer['locale'] = 'en-GB'): ConsoleViewer {
  return {
    identity: { actor: 'a@b.no', company: 'c1', channel: 'web', role, permissions, tokenExpiresAt: new Date(0) },
    csrf: 'c',
    companyName: 'Fjord AS',
    locale,
  };
}

const ID = '0b8f6f4e-3c1a-4d2e-9f00-123456789abc';

describe('consoleText', () => {
  it('links a proposal a reason names to its page, for a viewer who may open proposals', () => {
    const text = `possible duplicate of proposal ${ID} (Kiwi <Storgata>, NOK 120.00, 2026-11-27)`;
    expect(consoleText(viewer('accountant', ['monitor']), text).value).toBe(
      `possible duplicate of proposal <a class="id" href="/console/proposals/${ID}">${ID}</a> ` +
        '(Kiwi &lt;Storgata&gt;, NOK 120.00, 2026-11-27)',
    );
  });

  it('shows the id without a link to a viewer who may not open proposal pages', () => {
    const page = consoleText(viewer('manager', []), `Proposal ${ID}.`).value;
    expect(page).toBe(`Proposal <span class="id">${ID}</span>.`);
  });

  it('shows an instant in Oslo time, keeping the exact value in <time>', () => {
    expect(
      consoleText(viewer('admin', ['monitor'], 'nb-NO'), 'It will be booked after 2026-11-28T16:05:00.000Z.').value,
    ).toBe('It will be booked after <time datetime="2026-11-28T16:05:00.000Z">28. nov. 2026, 17:05</time>.');
  });

  it('leaves a text without ids or instants as it was, escaped', () => {
    expect(consoleText(viewer('admin', ['monitor']), 'a "b" & c').value).toBe('a &quot;b&quot; &amp; c');
  });
});
