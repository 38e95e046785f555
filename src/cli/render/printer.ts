/**
 * Line-aware output for the terminal transcript: streamed text may stop mid-line, so every
 * block that starts on its own line first ends the current one. All text passes the redactor.
 */
import type { Redactor } from './redact';

export class Printer {
  private atLineStart = true;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly redact: Redactor = (t) => t,
  ) {}

  /** Writes text as is (streamed deltas). */
  write(text: string): void {
    const safe = this.redact(text);
    if (safe === '') return;
    this.out.write(safe);
    this.atLineStart = safe.endsWith('\n');
  }

  /** Writes one whole line, starting a new one first when the cursor is mid-line. */
  line(text = ''): void {
    this.breakLine();
    this.write(`${text}\n`);
  }

  /** Ends the current line when something was written on it. */
  breakLine(): void {
    if (!this.atLineStart) this.write('\n');
  }

  /** Something else (a prompt's echo) finished the line. */
  markLineStart(): void {
    this.atLineStart = true;
  }
}
