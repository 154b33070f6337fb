import { html } from './html';
import { consoleTable } from './console-table';

describe('consoleTable', () => {
  const rows = [
    { name: 'Kontorland <AS>', status: 'ok' },
    { name: 'Rema 1000', status: 'dead' },
  ];

  it('heads each column and labels each cell with its heading, escaping text', () => {
    const table = consoleTable(
      [
        { heading: 'Name', cell: (r) => r.name },
        { heading: 'State', cell: (r) => html`<strong>${r.status}</strong>` },
      ],
      rows,
    ).value;

    expect(table.match(/<th scope="col">([^<]*)<\/th>/g)).toEqual([
      '<th scope="col">Name</th>',
      '<th scope="col">State</th>',
    ]);
    expect(table).toContain('<td data-label="Name">Kontorland &lt;AS&gt;</td>');
    expect(table).toContain('<td data-label="State"><strong>dead</strong></td>');
    expect(table.match(/<tr/g)).toHaveLength(1 + rows.length);
  });

  it('gives each row the attributes asked for', () => {
    const table = consoleTable([{ heading: 'Name', cell: (r) => r.name }], rows, {
      rowAttributes: (r) => html`data-status="${r.status}"`,
    }).value;

    expect(table).toMatch(/<tr data-status="ok">\s*<td data-label="Name">Kontorland/);
    expect(table).toMatch(/<tr data-status="dead">\s*<td data-label="Name">Rema 1000/);
  });
});
