/**
 * One short answer written straight to stdout's descriptor, so Node never builds the stream for it
 * (for a pipe that is a socket, a noticeable share of a short process). `--version` and a single
 * `check-command` print one line this way.
 */
import type { CliIO } from './io';

// Taken from the process, not required: in the dispatcher, which holds this file, the first
// `require` of a CommonJS module goes through Node's module loader (about 0.45M instructions of an
// 81M `planwise --version`).
const fs = process.getBuiltinModule('node:fs');

/**
 * Writes `text` to `io.stdoutFd`. Returns what is left for `io.stdout` to write: all of it when
 * there is no descriptor (tests), the rest when a non-blocking pipe was full (EAGAIN), '' when all
 * of it was written; or 'closed' when the reader is gone (EPIPE).
 */
export function writeOnce(io: CliIO, text: string): string | 'closed' {
  if (io.stdoutFd === undefined) return text;
  // The string goes to the descriptor as it is: a Buffer is made only when a write fell short.
  let bytes: Buffer | undefined;
  try {
    const written = fs.writeSync(io.stdoutFd, text);
    if (written === Buffer.byteLength(text)) return '';
    bytes = Buffer.from(text, 'utf8').subarray(written);
    while (bytes.length > 0) bytes = bytes.subarray(fs.writeSync(io.stdoutFd, bytes));
    return '';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return 'closed';
    if (code === 'EAGAIN') return bytes ? bytes.toString('utf8') : text;
    throw err;
  }
}
