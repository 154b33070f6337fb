/** What a test receipt PDF carries besides its one empty page. */
export interface ReceiptPdfOptions {
  /** A line written into the page's content stream, to make one receipt's bytes differ from another's. */
  readonly note?: string;
  /** The file's exact size in bytes, reached by padding the content stream with a comment. */
  readonly size?: number;
}

const HEADER = '%PDF-1.7\n';

/** The four objects of a one-page PDF, the fourth being the page's content stream. */
function objects(content: string): string[] {
  return [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 210 297] /Resources << >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
}

/** A complete file: header, objects, a cross-reference table of their byte offsets, the trailer. */
function assemble(content: string): Buffer {
  let body = HEADER;
  const offsets: number[] = [];
  objects(content).forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}`;
  body += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A valid one-page PDF receipt, as a real PDF reader parses it (catalog, page tree, a page, a
 * content stream, an exact cross-reference table and trailer). `note` goes into the content
 * stream; `size` pads the stream with a comment line so the file is exactly that many bytes.
 */
export function receiptPdf(options: ReceiptPdfOptions = {}): Buffer {
  const note = options.note === undefined ? '' : `% ${options.note}\n`;
  const content = `${note}BT ET`;
  const plain = assemble(content);
  if (options.size === undefined) return plain;
  // A comment line of `filler` bytes ('%', the x's, '\n'); the stream's /Length and the offsets
  // grow by a digit or two with it, so settle the filler until the file is exactly `size`.
  let filler = options.size - plain.length;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (filler < 2) break;
    const padded = assemble(`%${'x'.repeat(filler - 2)}\n${content}`);
    if (padded.length === options.size) return padded;
    filler -= padded.length - options.size;
  }
  throw new RangeError(`a receipt PDF cannot be exactly ${options.size} bytes (at least ${plain.length + 2})`);
}
