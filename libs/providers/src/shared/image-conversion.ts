import { spawn } from 'node:child_process';
import { MAX_RECEIPT_PIXELS } from '@app/domain';

/** How long one receipt's conversion may take before its process is killed and the receipt refused. */
export const CONVERSION_DEADLINE_MS = 30_000;
/** The converter process's JavaScript heap; the pixels live in libvips' memory, bounded by MAX_RECEIPT_PIXELS. */
const CONVERTER_HEAP_MB = 64;
/** How much of the converter's error output is kept for the message. */
const ERROR_CHARS = 500;

/**
 * The converter's program (CommonJS, run by `node -e`): the file on stdin, the converted file on
 * stdout, the reason on stderr and exit code 1 when it cannot be converted. `limitInputPixels`
 * counts every page of the stacked strip, so no file decodes beyond MAX_RECEIPT_PIXELS.
 */
const CONVERTER_SOURCE = `
const [library, target, maxPixels] = process.argv.slice(1);
const sharp = require(library);
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', async () => {
  try {
    const image = sharp(Buffer.concat(chunks), { pages: -1, failOn: 'error', limitInputPixels: Number(maxPixels) }).rotate();
    const bytes = target === 'jpeg' ? await image.jpeg({ quality: 90 }).toBuffer() : await image.png().toBuffer();
    process.stdout.end(bytes);
  } catch (error) {
    process.stderr.write(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
});
`;

/**
 * `bytes` converted to `target` by sharp (libvips), every page or frame stacked into one image, in
 * a process of its own: a decoder's memory is native and cannot be capped or interrupted inside
 * this process (a worker thread's heap limit does not cover it, and ending the thread waits for
 * the decode), so the conversion runs where it can be killed at CONVERSION_DEADLINE_MS and where
 * running out of memory ends only that process. The caller has judged the header first
 * (`imageReceiptProblem`); the pixel limit inside stops a file whose header said otherwise.
 *
 * The process inherits no environment: it needs no configuration, and sees no secret.
 * Rejects with an Error saying why when the file cannot be converted within those bounds.
 */
export function convertImage(
  bytes: Uint8Array,
  target: 'jpeg' | 'png',
  deadlineMs = CONVERSION_DEADLINE_MS,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const converter = spawn(
      process.execPath,
      [
        `--max-old-space-size=${CONVERTER_HEAP_MB}`,
        '-e',
        CONVERTER_SOURCE,
        require.resolve('sharp'),
        target,
        String(MAX_RECEIPT_PIXELS),
      ],
      { env: {}, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const output: Buffer[] = [];
    let errors = '';
    let overrun = false;
    const deadline = setTimeout(() => {
      overrun = true;
      converter.kill('SIGKILL');
    }, deadlineMs);
    converter.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    converter.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < ERROR_CHARS) errors += chunk.toString('utf8');
    });
    // A converter that ended early leaves its input unread; its exit says why.
    converter.stdin.on('error', () => undefined);
    converter.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    converter.on('close', (code, signal) => {
      clearTimeout(deadline);
      if (code === 0) resolve(new Uint8Array(Buffer.concat(output)));
      else if (overrun) reject(new Error(`it did not finish within ${deadlineMs} ms`));
      else
        reject(new Error(errors.slice(0, ERROR_CHARS).trim() || `the converter ended (${signal ?? `exit ${code}`})`));
    });
    converter.stdin.end(bytes);
  });
}
