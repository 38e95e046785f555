/**
 * Line input for the terminal prompts, over `node:readline/promises` on the CLI's stdin.
 *
 * One readline interface serves the whole run and queues lines that arrive before a prompt
 * asks for them, so scripted input (a pipe fed all at once) is never lost between prompts. The
 * interface is opened by `listen()` (an interactive run calls it at its start, so Ctrl-C is
 * handled from the first moment) or by the first prompt; a non-interactive run never touches stdin.
 * `ask` resolves to `null` at end of input or when the person presses Ctrl-C at the prompt, and,
 * on a terminal, to `ESCAPE` when the person presses Esc at a prompt asked with `{ escape: true }`;
 * Ctrl-C while no prompt waits calls `onInterrupt` (the command cancels the running turn).
 */
import { createInterface, type Interface } from 'node:readline/promises';
import type { Printer } from '../render/printer';

/** What `ask` resolves to when the person pressed Esc at a prompt that takes it. */
export const ESCAPE: unique symbol = Symbol('escape');

export class LineInput {
  private rl: Interface | undefined;
  private readonly queue: string[] = [];
  private waiter: ((line: string | null | typeof ESCAPE) => void) | undefined;
  /** The waiting prompt takes Esc. */
  private escapable = false;
  private ended = false;
  /** Called on Ctrl-C while no prompt is waiting. */
  onInterrupt: (() => void) | undefined;

  /**
   * @param terminal true when stdin and the prompt stream are a TTY: readline then echoes and
   *   edits the line itself. Otherwise the answer is echoed after the prompt, so a transcript of
   *   scripted input reads like a session.
   */
  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly printer: Printer,
    private readonly terminal: boolean,
  ) {}

  /** Shows `prompt` and resolves to the next line (without its line break), or null. */
  ask(prompt: string): Promise<string | null>;
  /** The same, and on a terminal Esc resolves to `ESCAPE`. */
  ask(prompt: string, options: { readonly escape: true }): Promise<string | null | typeof ESCAPE>;
  async ask(prompt: string, options?: { readonly escape: true }): Promise<string | null | typeof ESCAPE> {
    this.printer.breakLine();
    const rl = this.open();
    const queued = this.queue.shift();
    let line: string | null | typeof ESCAPE;
    if (queued !== undefined || this.ended || !rl) {
      this.printer.write(prompt);
      line = queued ?? null;
    } else {
      if (this.terminal) {
        rl.setPrompt(prompt);
        rl.prompt();
      } else {
        this.printer.write(prompt);
      }
      this.escapable = options?.escape === true;
      line = await new Promise<string | null | typeof ESCAPE>((resolve) => (this.waiter = resolve));
      this.escapable = false;
    }
    if (!this.terminal) this.printer.write(typeof line === 'string' ? `${line}\n` : '\n');
    this.printer.markLineStart();
    return line;
  }

  /** True when Esc reaches a prompt (a terminal); scripted input has no Esc key. */
  get takesEscape(): boolean {
    return this.terminal;
  }

  /** Starts reading stdin now: queues typed-ahead lines and handles Ctrl-C. */
  listen(): void {
    this.open();
  }

  /** Releases stdin (restores the terminal mode); later asks get null. */
  close(): void {
    this.ended = true;
    this.rl?.close();
    this.rl = undefined;
  }

  private open(): Interface | undefined {
    if (this.rl || this.ended) return this.rl;
    const rl = createInterface({ input: this.input, output: this.output, terminal: this.terminal });
    rl.on('line', (line: string) => this.deliver(line));
    rl.on('close', () => {
      this.ended = true;
      this.deliver(null);
    });
    // readline reads a terminal's keys as keypress events on the input; a lone Esc arrives as 'escape'.
    if (this.terminal)
      this.input.on('keypress', (_s: string | undefined, key: { name?: string } | undefined) => {
        if (key?.name !== 'escape' || !this.waiter || !this.escapable) return;
        rl.write(null, { ctrl: true, name: 'e' });
        rl.write(null, { ctrl: true, name: 'u' });
        this.output.write('Esc\n');
        this.deliver(ESCAPE);
      });
    rl.on('SIGINT', () => {
      if (this.waiter) {
        this.output.write('^C\n');
        this.deliver(null);
      } else {
        this.onInterrupt?.();
      }
    });
    this.rl = rl;
    return rl;
  }

  private deliver(line: string | null | typeof ESCAPE): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(line);
    } else if (typeof line === 'string') {
      this.queue.push(line);
    }
  }
}
