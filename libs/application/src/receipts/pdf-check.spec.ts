import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { receiptImage, receiptPdf } from '@app/testing';
import { PDF_MAX_OBJECTS, PdfCheck, pdfFrameProblem } from './pdf-check';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/**
 * A file whose frame is right (header, `xref` where `startxref` points, `%%EOF` at the end) around
 * `body`: what reaches the parser.
 */
function framed(body: Buffer | string): Buffer {
  const head = Buffer.concat([latin1('%PDF-1.7\n'), typeof body === 'string' ? latin1(body) : body, latin1('\n')]);
  const tail = `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 /Root 1 0 R >>\nstartxref\n${head.length}\n%%EOF\n`;
  return Buffer.concat([head, latin1(tail)]);
}

const CATALOG =
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n';

describe('PdfCheck', () => {
  const check = new PdfCheck();
  afterAll(() => check.onModuleDestroy());

  describe('accepts', () => {
    it('a minimal one-page PDF with a cross-reference table', async () => {
      await expect(check.problem(receiptPdf())).resolves.toBeUndefined();
    });

    it('a Buffer, which it leaves as it was for the caller to store', async () => {
      const bytes = receiptPdf({ size: 64 * 1024 });
      const before = Buffer.from(bytes);

      await expect(check.problem(bytes)).resolves.toBeUndefined();
      expect(bytes.byteLength).toBe(before.length);
      expect(bytes.equals(before)).toBe(true);
    });

    it('one padded to 1 MiB with a big content stream, and one with a note of its own', async () => {
      await expect(check.problem(receiptPdf({ size: 1024 * 1024 }))).resolves.toBeUndefined();
      await expect(check.problem(receiptPdf({ note: 'purchase 7' }))).resolves.toBeUndefined();
    });

    it('a PDF 1.5 file with a cross-reference stream', async () => {
      const document = await PDFDocument.create({ updateMetadata: false });
      document.addPage([210, 297]);
      document.addPage([210, 297]);
      const bytes = await document.save({ useObjectStreams: true });

      expect(Buffer.from(bytes).toString('latin1')).toMatch(/\/Type \/XRef/);
      await expect(check.problem(bytes)).resolves.toBeUndefined();
    });
  });

  describe('an encrypted PDF (an owner password restricting changes)', () => {
    const encrypted = async () => {
      const document = await PDFDocument.create({ updateMetadata: false });
      document.addPage([210, 297]);
      document.encrypt({ userPassword: '', ownerPassword: 'owner', permissions: { printing: 'highResolution' } });
      return document.save({ useObjectStreams: false });
    };

    it('is accepted with a cross-reference table: its objects are readable without decrypting', async () => {
      await expect(check.problem(await encrypted())).resolves.toBeUndefined();
    });
  });

  describe('refuses', () => {
    it('a PDF header followed by garbage', async () => {
      const garbage = Buffer.concat([
        latin1('%PDF-1.7\n'),
        Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
      ]);
      await expect(check.problem(garbage)).resolves.toMatch(/does not end with a PDF trailer/);
      await expect(check.problem(framed(garbage.subarray(9)))).resolves.toMatch(/has no page tree|does not parse/);
      await expect(check.problem(latin1('%PDF-x.y\n%%EOF\n'))).resolves.toBe('does not start with a PDF header');
    });

    it('a truncated PDF', async () => {
      const whole = receiptPdf({ note: 'lunch' });
      for (const length of [whole.length - 7, whole.length - 20, Math.floor(whole.length / 2), 9]) {
        await expect(check.problem(whole.subarray(0, length))).resolves.toMatch(/does not end with a PDF trailer/);
      }
    });

    it('a file without a cross-reference section or trailer, as a header and an %%EOF make no PDF', async () => {
      const bare = latin1('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
      await expect(check.problem(bare)).resolves.toMatch(/does not end with a PDF trailer/);
      await expect(check.problem(latin1('%PDF-1.4\n%%EOF\n'))).resolves.toMatch(/does not end with a PDF trailer/);
    });

    it('a trailer whose startxref points at no cross-reference section', async () => {
      const whole = receiptPdf().toString('latin1');
      const misdirected = whole.replace(/startxref\n\d+\n/, 'startxref\n9\n');
      const outside = whole.replace(/startxref\n\d+\n/, 'startxref\n999999\n');

      expect(misdirected).not.toBe(whole);
      await expect(check.problem(latin1(misdirected))).resolves.toBe(
        'has no cross-reference section where its trailer points',
      );
      await expect(check.problem(latin1(outside))).resolves.toBe(
        'has no cross-reference section where its trailer points',
      );
    });

    it('a polyglot: a ZIP or HTML appended after %%EOF, read from the end by its own readers', async () => {
      const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0]);
      for (const tail of [zip, latin1('<html><script>alert(1)</script></html>\n'), latin1('% a comment\n')]) {
        await expect(check.problem(Buffer.concat([receiptPdf(), tail]))).resolves.toMatch(
          /does not end with a PDF trailer/,
        );
      }
    });

    it('a document whose catalog has no page', async () => {
      await expect(check.problem(framed(CATALOG))).resolves.toBe('has no page tree with a page');
      await expect(check.problem(framed('1 0 obj << /Type /Font >> endobj'))).resolves.toBe(
        'has no page tree with a page',
      );
    });

    it(`more than ${PDF_MAX_OBJECTS} objects, counted before parsing`, async () => {
      const objects = Array.from({ length: PDF_MAX_OBJECTS + 1 }, (_, i) => `${i + 3} 0 obj null endobj\n`).join('');
      await expect(check.problem(framed(CATALOG + objects))).resolves.toBe(`has more than ${PDF_MAX_OBJECTS} objects`);
    });

    it('an object stream whose two flate filters inflate it a thousandfold twice, and goes on', async () => {
      const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
      const stream = Buffer.concat([
        latin1(
          `3 0 obj << /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length ${bomb.length + 0} >> stream\n`,
        ),
        deflateSync(bomb),
        latin1('\nendstream endobj'),
      ]);
      await expect(check.problem(framed(Buffer.concat([latin1(CATALOG), stream])))).resolves.toMatch(
        /does not parse as a PDF/,
      );
      await expect(check.problem(receiptPdf())).resolves.toBeUndefined();
    });

    it('a cross-reference stream declaring two billion entries, then parses the next file in a new thread', async () => {
      const xref = '3 0 obj << /Type /XRef /Size 2000000000 /W [1 1 1] /Length 3 >> stream\nabc\nendstream endobj';
      await expect(check.problem(framed(CATALOG + xref))).resolves.toBe(
        'does not parse as a PDF within the limits of time and memory',
      );
      await expect(check.problem(receiptPdf())).resolves.toBeUndefined();
    });

    it('garbage whose skipping is quadratic for the parser, within its deadline', async () => {
      await expect(check.problem(framed(`${CATALOG}x${'1'.repeat(256 * 1024)}`))).resolves.toBe(
        'does not parse as a PDF within the limits of time and memory',
      );
    });
  });

  describe('hashes the pages’ content', () => {
    const contentOf = async (bytes: Uint8Array) => {
      const verdict = await check.examine(bytes);
      if ('problem' in verdict) throw new Error(verdict.problem);
      return verdict.contentSha256;
    };

    it('the same for the same pages in other bytes: trailing whitespace, a file saved again with object streams', async () => {
      const original = receiptPdf({ note: 'receipt 17' });
      const resaved = await (await PDFDocument.load(original)).save({ useObjectStreams: true });
      const content = await contentOf(original);

      expect(content).toMatch(/^[0-9a-f]{64}$/);
      expect(Buffer.from(resaved).equals(original)).toBe(false);
      expect(await contentOf(resaved)).toBe(content);
      expect(await contentOf(Buffer.concat([original, latin1('\r\n')]))).toBe(content);
    });

    it('another for a scan of another receipt drawn by the same operators (its picture differs)', async () => {
      const scan = async (seed: number) => {
        const document = await PDFDocument.create();
        const image = await document.embedPng(await receiptImage({ seed }));
        document.addPage([240, 480]).drawImage(image, { x: 0, y: 0 });
        return document;
      };
      const first = await scan(1);
      const bytes = await first.save();
      // The second receipt's picture in place of the first's: the same page content, names and all.
      const other = await scan(2);
      await other.save(); // embeds its picture
      const picture = (document: PDFDocument) =>
        document.context
          .enumerateIndirectObjects()
          .find(
            ([, object]) =>
              object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
          )!;
      const [ref] = picture(first);
      const [, replacement] = picture(other) as [unknown, PDFRawStream];
      first.context.assign(ref, PDFRawStream.of(replacement.dict, replacement.contents));
      const secondScan = await first.save();

      expect(await contentOf(secondScan)).not.toBe(await contentOf(bytes));
      expect(await contentOf(Buffer.concat([bytes, latin1('\n')]))).toBe(await contentOf(bytes));
    });

    it('another for other content, none for pages that draw nothing', async () => {
      const empty = await PDFDocument.create();
      empty.addPage();

      expect(await contentOf(receiptPdf({ note: 'receipt 18' }))).not.toBe(
        await contentOf(receiptPdf({ note: 'receipt 17' })),
      );
      expect(await contentOf(await empty.save())).toBeNull();
    });
  });

  it('judges the frame without parsing: a valid frame around nothing passes it', () => {
    expect(pdfFrameProblem(framed(''))).toBeUndefined();
    expect(pdfFrameProblem(receiptPdf())).toBeUndefined();
  });
});
