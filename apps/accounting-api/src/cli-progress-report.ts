import { SingleBar } from 'cli-progress';

/** How far a long CLI command is: reported as it goes, then `stop`ped once. */
export interface ProgressReport {
  /** `done` of `total` (null: not known ahead), and what was just done. */
  update(done: number, total: number | null, detail: string): void;
  stop(): void;
}

export interface ProgressOptions {
  /** Without a terminal: a line at most every this many items (and at the end). Default 1. */
  readonly every?: number;
  /** `done` is a percentage (shown as `40%`, not `40/100`). */
  readonly percent?: boolean;
}

/**
 * The progress of a long CLI command on `stream` (stderr, so that stdout keeps only the result):
 * on a terminal a bar redrawn in place (cli-progress; a counter when the total is not known),
 * otherwise plain lines, one per step or per `every` items, which a log or CI keeps readable.
 */
export function progressReport(
  stream: NodeJS.WritableStream,
  label: string,
  options: ProgressOptions = {},
): ProgressReport {
  const every = Math.max(1, options.every ?? 1);
  const tty = (stream as { isTTY?: boolean }).isTTY === true;
  const amount = (done: number, total: number | null) => (options.percent ? `${done}%` : `${done}/${total ?? '?'}`);
  let bar: SingleBar | undefined;
  let counter = false;
  let printed: number | null = null;
  let pending: string | null = null;

  return {
    update(done, total, detail) {
      if (tty && total !== null) {
        if (bar === undefined) {
          bar = new SingleBar({
            stream,
            format: `${label} [{bar}] ${options.percent ? '{percentage}%' : '{value}/{total}'} {detail}`,
            hideCursor: true,
          });
          bar.start(total, done, { detail });
        } else {
          bar.setTotal(total);
          bar.update(done, { detail });
        }
      } else if (tty) {
        counter = true;
        stream.write(`\r${label}: ${done} ${detail}\u001b[K`);
      } else {
        const line = `${label}: ${amount(done, total)} ${detail}`.trimEnd();
        if (printed === null || done - printed >= every || (total !== null && done >= total)) {
          stream.write(`${line}\n`);
          printed = done;
          pending = null;
        } else {
          pending = line;
        }
      }
    },
    stop() {
      bar?.stop();
      bar = undefined;
      if (counter) stream.write('\n');
      counter = false;
      if (pending !== null) stream.write(`${pending}\n`);
      pending = null;
    },
  };
}
