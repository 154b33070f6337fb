import { html, type Html } from './html';

/** One column of a console table: its heading, and what a row shows in it (text is escaped). */
export interface ConsoleColumn<T> {
  readonly heading: string;
  readonly cell: (row: T) => Html | string | number;
}

export interface ConsoleTableOptions<T> {
  /** Extra attributes of a row's `<tr>`, e.g. html`data-status="${…}"`. */
  readonly rowAttributes?: (row: T) => Html;
}

/**
 * A console table with column headings. Each cell carries its column's heading as `data-label`:
 * on a narrow screen the stylesheet shows the rows as blocks, each cell headed by its label.
 */
export function consoleTable<T>(
  columns: readonly ConsoleColumn<T>[],
  rows: readonly T[],
  options: ConsoleTableOptions<T> = {},
): Html {
  return html`<table>
    <thead>
      <tr>
        ${columns.map((c) => html`<th scope="col">${c.heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row) =>
          html`<tr ${options.rowAttributes?.(row) ?? html``}>
            ${columns.map((c) => html`<td data-label="${c.heading}">${c.cell(row)}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}
