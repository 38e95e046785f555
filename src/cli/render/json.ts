/** `--json`: every thread event as one JSON line on stdout, and nothing else there. */
import type { ThreadEvent } from '../../core/api/sessions';
import type { Redactor } from './redact';

export class JsonRenderer {
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly redact: Redactor = (t) => t,
  ) {}

  handle(e: ThreadEvent): void {
    this.out.write(`${this.redact(JSON.stringify(e))}\n`);
  }
}
