import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';

/** Most objects a receipt may have; a receipt of a few pages has tens to hundreds. */
export const PDF_MAX_OBJECTS = 10_000;
/** How long one PDF may take to parse before it is refused and its parser thread ended. */
export const PDF_PARSE_DEADLINE_MS = 3_000;
/** The parser thread's heap: what a receipt's objects need, and not the machine. */
const PARSER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

/** PDF whitespace (ISO 32000-2 §7.2.3). */
const WS = '[\\0\\t\\n\\f\\r ]';
const HEADER = /^%PDF-[12]\.\d/;
/** The file's end (§7.5.5): `startxref`, the last cross-reference section's offset, `%%EOF`, and nothing after. */
const TRAILER = new RegExp(`startxref${WS}+(\\d{1,10})${WS}+%%EOF${WS}*$`);
/** What that offset points at: a cross-reference table, or a cross-reference stream's object (§7.5.8). */
const CROSS_REFERENCE = new RegExp(`^${WS}*(?:xref|\\d{1,10}${WS}+\\d{1,5}${WS}+obj[^]*?/Type${WS}*/XRef\\b)`);
/** How far from that offset the cross-reference stream's `/Type /XRef` may be. */
const CROSS_REFERENCE_HEAD_BYTES = 1024;
/** The end of the file within which `%%EOF` must be (readers look no further). */
const TAIL_BYTES = 1024;

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, to - from)).toString('latin1');
}

/** How many times `word` occurs in `bytes`, counting no further than `limit + 1`. */
function occurrences(bytes: Uint8Array, word: string, limit: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = buffer.indexOf(word, 0, 'latin1'); at !== -1 && count <= limit;) {
    count += 1;
    at = buffer.indexOf(word, at + word.length, 'latin1');
  }
  return count;
}

/**
 * Why `bytes` cannot be a whole PDF, judged from its frame alone, or undefined: the header at the
 * very start, and at the very end a trailer whose `startxref` points at a cross-reference section
 * within the file. A truncated file, one with something appended after `%%EOF` (a ZIP or HTML
 * polyglot read from its end) and one without a cross-reference section are refused here, in
 * linear time, before any parser sees them; so is a file with more object keywords than a receipt
 * has objects.
 */
export function pdfFrameProblem(bytes: Uint8Array): string | undefined {
  if (!HEADER.test(latin1(bytes, 0, Math.min(bytes.byteLength, 16)))) return 'does not start with a PDF header';
  const trailer = TRAILER.exec(latin1(bytes, Math.max(0, bytes.byteLength - TAIL_BYTES), bytes.byteLength));
  if (!trailer) return 'does not end with a PDF trailer (startxref and %%EOF, nothing after)';
  const offset = Number(trailer[1]);
  if (
    offset >= bytes.byteLength ||
    !CROSS_REFERENCE.test(latin1(bytes, offset, Math.min(bytes.byteLength, offset + CROSS_REFERENCE_HEAD_BYTES)))
  ) {
    return 'has no cross-reference section where its trailer points';
  }
  // Every object is `n g obj … endobj`: two keywords each.
  if (occurrences(bytes, 'obj', 2 * PDF_MAX_OBJECTS) > 2 * PDF_MAX_OBJECTS) {
    return `has more than ${PDF_MAX_OBJECTS} objects`;
  }
  return undefined;
}

/** The report of a parse that ran out of time, or of memory and ended the parser thread. */
const OVERRUN = 'overrun';

/** What the parser thread answers for one file. */
type ParseReport =
  | { readonly objects: number; readonly pages: number; readonly contentSha256: string | null }
  | { readonly error: string };

/** What PdfCheck says of a file: why it is no PDF receipt, or the hash of its page content. */
export type PdfVerdict =
  | { readonly problem: string }
  | {
      /**
       * Hex SHA-256 of its pages' decoded content streams (whitespace runs made one space) and of
       * the streams of the pictures and forms they draw, as stored: the same for the same pages in
       * other bytes (metadata, ids, layout of the file). Null for pages that draw nothing (or
       * content the parser cannot decode).
       */
      readonly contentSha256: string | null;
    };

/**
 * The parser thread's program (CommonJS). It loads each file with @cantoo/pdf-lib, which reads
 * every object of the file, those of object streams included, and answers how many objects and
 * pages it found and the hash of its pages' content (PdfVerdict), or that the file does not parse.
 * The library's warnings about malformed input are the input's, not the service's, and are silenced.
 */
const PARSER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { PDFDocument, PDFDict, PDFName, PDFArray, PDFRawStream, ParseSpeeds, decodePDFRawStream } = require(workerData.library);
console.warn = () => {};
console.log = () => {};
function contentSha256(document) {
  try {
    const hash = createHash('sha256');
    let drawn = false;
    for (const page of document.getPages()) {
      const contents = page.node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => document.context.lookup(ref)) : [contents];
      for (const stream of streams) {
        if (!(stream instanceof PDFRawStream)) continue;
        const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1').replace(/[\\0\\t\\n\\f\\r ]+/g, ' ').trim();
        if (text !== '') drawn = true;
        hash.update(text).update('\\n');
      }
      // What the page draws by name (a scan's picture, a form): its stream as stored, so that two
      // scanned receipts drawn by the same operators are told apart by their pictures.
      const resources = page.node.Resources();
      const xobjects = resources instanceof PDFDict ? resources.lookup(PDFName.of('XObject')) : undefined;
      if (xobjects instanceof PDFDict) {
        const named = xobjects.entries().map(([name, ref]) => [name.asString(), document.context.lookup(ref)]);
        named.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        for (const [name, object] of named) {
          if (!(object instanceof PDFRawStream)) continue;
          drawn = true;
          hash.update(name).update(object.contents).update('\\n');
        }
      }
      hash.update('\\f');
    }
    return drawn ? hash.digest('hex') : null;
  } catch {
    return null;
  }
}
parentPort.on('message', async (bytes) => {
  try {
    const document = await PDFDocument.load(bytes, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      ignoreEncryption: true,
      parseSpeed: ParseSpeeds.Fastest,
    });
    const { context } = document;
    const catalog = context.lookup(context.trailerInfo.Root);
    const hasPageTree =
      catalog instanceof PDFDict &&
      catalog.lookup(PDFName.of('Type')) === PDFName.of('Catalog') &&
      catalog.lookup(PDFName.of('Pages')) instanceof PDFDict;
    const objects = context.enumerateIndirectObjects().length;
    const pages = hasPageTree ? document.getPageCount() : 0;
    parentPort.postMessage({ objects, pages, contentSha256: pages > 0 ? contentSha256(document) : null });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.name : typeof error });
  }
});
parentPort.postMessage('ready');
`;

/**
 * Whether a receipt declared and sniffed as a PDF is one: its frame (pdfFrameProblem), then a
 * full parse by @cantoo/pdf-lib that must find a catalog with at least one page and at most
 * PDF_MAX_OBJECTS objects.
 *
 * The parser reads everything eagerly and is not hardened against hostile files: a flate bomb in
 * an object stream, or a cross-reference stream declaring billions of entries, costs it gigabytes
 * and minutes. So it runs in a worker thread of its own, one file at a time, with a bounded heap
 * and a deadline; a file that overruns either is refused and the thread replaced. The thread is
 * started at the first PDF and does not keep the process alive.
 */
@Injectable()
export class PdfCheck implements OnModuleDestroy {
  private parser: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /** Why `bytes` is not a PDF receipt the service takes, or undefined when it is one. */
  async problem(bytes: Uint8Array): Promise<string | undefined> {
    const verdict = await this.examine(bytes);
    return 'problem' in verdict ? verdict.problem : undefined;
  }

  /** Why `bytes` is not a PDF receipt the service takes, or the hash of its page content. */
  async examine(bytes: Uint8Array): Promise<PdfVerdict> {
    const frame = pdfFrameProblem(bytes);
    if (frame !== undefined) return { problem: frame };
    const parsed = this.queue.then(() => this.parse(bytes));
    this.queue = parsed.catch(() => undefined);
    const report = await parsed;
    if ('error' in report) {
      return {
        problem:
          report.error === OVERRUN
            ? 'does not parse as a PDF within the limits of time and memory'
            : 'does not parse as a PDF',
      };
    }
    if (report.objects > PDF_MAX_OBJECTS) return { problem: `has more than ${PDF_MAX_OBJECTS} objects` };
    if (report.pages < 1) return { problem: 'has no page tree with a page' };
    return { contentSha256: report.contentSha256 };
  }

  async onModuleDestroy(): Promise<void> {
    const parser = this.parser;
    this.parser = undefined;
    if (parser) await (await parser).terminate();
  }

  private start(): Promise<Worker> {
    const worker = new Worker(PARSER_SOURCE, {
      eval: true,
      workerData: { library: require.resolve('@cantoo/pdf-lib') },
      resourceLimits: PARSER_LIMITS,
    });
    worker.unref();
    const started = new Promise<Worker>((resolve, reject) => {
      worker.once('message', () => resolve(worker));
      worker.once('error', reject);
    });
    // Whenever it ends (refused file, out of memory), the next file starts a new one.
    worker.on('exit', () => {
      if (this.parser === started) this.parser = undefined;
    });
    worker.on('error', () => undefined);
    return started;
  }

  private async parse(bytes: Uint8Array): Promise<ParseReport> {
    const parser = (this.parser ??= this.start());
    const worker = await parser;
    // A copy of its own to hand over: the caller's bytes (a Buffer's slice shares its memory) stay usable.
    const copy = new Uint8Array(bytes);
    return new Promise<ParseReport>((resolve) => {
      const finish = (report: ParseReport, healthy: boolean) => {
        clearTimeout(deadline);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        if (!healthy) {
          // Replaced now, not at its exit: the next file must not be posted to a thread being ended.
          if (this.parser === parser) this.parser = undefined;
          void worker.terminate();
        }
        resolve(report);
      };
      const onMessage = (report: ParseReport) => finish(report, true);
      const onExit = () => finish({ error: OVERRUN }, false);
      const deadline = setTimeout(() => finish({ error: OVERRUN }, false), PDF_PARSE_DEADLINE_MS);
      deadline.unref();
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.postMessage(copy, [copy.buffer]);
    });
  }
}
