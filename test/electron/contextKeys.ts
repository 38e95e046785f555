/**
 * Reads Planwise's context keys (`planwise.state`, `planwise.hasPlan`, …) from inside the extension
 * host. VS Code has no API that reads a context key, so the probe records every `setContext` call
 * made through `vscode.commands.executeCommand`.
 *
 * It works because the test bundle lives inside the extension's folder: VS Code hands every module
 * under an extension's path the same `vscode` API object, so Planwise's own `setContext` calls go
 * through the wrapper installed here. Install it before Planwise activates (index.ts does, first).
 */
import * as vscode from 'vscode';

interface Recorded {
  readonly key: string;
  readonly value: unknown;
  readonly seq: number;
}

export class ContextKeyProbe {
  private readonly log: Recorded[] = [];
  private readonly values = new Map<string, unknown>();

  /** Wraps `vscode.commands.executeCommand`; throws with the reason when the API object is sealed. */
  static install(): ContextKeyProbe {
    const probe = new ContextKeyProbe();
    const commands = vscode.commands as { executeCommand: typeof vscode.commands.executeCommand };
    const original = commands.executeCommand.bind(vscode.commands);
    const wrapped = (<T>(command: string, ...rest: unknown[]): Thenable<T> => {
      if (command === 'setContext' && typeof rest[0] === 'string') probe.record(rest[0], rest[1]);
      return original<T>(command, ...rest);
    }) as typeof vscode.commands.executeCommand;
    try {
      commands.executeCommand = wrapped;
    } catch (err) {
      throw new Error(
        `The context-key probe could not wrap vscode.commands.executeCommand (${String(err)}); ` +
          'this VS Code seals its API object, so context keys cannot be observed.',
      );
    }
    if (commands.executeCommand !== wrapped) {
      throw new Error('vscode.commands.executeCommand could not be replaced: context keys cannot be observed.');
    }
    return probe;
  }

  private record(key: string, value: unknown): void {
    this.values.set(key, value);
    this.log.push({ key, value, seq: this.log.length });
  }

  get(key: string): unknown {
    return this.values.get(key);
  }

  /** A position in the record; `waitFor(…, { after })` then only accepts values set later. */
  mark(): number {
    return this.log.length;
  }

  /** Waits until `key` is set to `value` (after position `after`, when given). */
  async waitFor(key: string, value: unknown, opts: { after?: number; timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit =
        opts.after === undefined
          ? this.values.get(key) === value
          : this.log.some((r) => r.seq >= opts.after! && r.key === key && r.value === value);
      if (hit) return;
      if (Date.now() > deadline) {
        const seen = this.log
          .filter((r) => r.key === key)
          .map((r) => JSON.stringify(r.value))
          .join(' → ');
        throw new Error(
          `Context key ${key} never became ${JSON.stringify(value)} within ${timeoutMs} ms (${seen || 'never set'}).`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
