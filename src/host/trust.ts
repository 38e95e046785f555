/**
 * Workspace trust rules. In an untrusted (Restricted Mode) workspace planning still works with
 * the file tools; the shell tool and verify runs are off, with an explanation the person sees.
 * Granting trust switches them on without a reload: everything asks `TrustState` at the moment
 * it acts, never at start-up.
 */
import { Emitter } from '../core/api/basics';
import type { CommandRunner, RunOptions, RunResult } from '../core/api/ports';

export interface TrustCapabilities {
  readonly fileTools: boolean;
  readonly shell: boolean;
  readonly verify: boolean;
  /** Why something is off; absent when everything is on. */
  readonly explanation?: string;
}

export const UNTRUSTED_EXPLANATION =
  'This workspace is in Restricted Mode, so Planwise plans with the file tools only: shell commands and verify ' +
  'runs are off. Trust the workspace (Manage Workspace Trust) to turn them on; no reload is needed.';

export const UNTRUSTED_SHELL_ERROR =
  'Shell commands are off because this workspace is not trusted. Use the file tools (read_file, list_files, ' +
  'code_search) instead, or ask the person to trust the workspace with "Manage Workspace Trust".';

export const UNTRUSTED_VERIFY_LENS =
  '$(workspace-untrusted) Verify is off in Restricted Mode: trust the workspace to run it';

export function capabilitiesFor(trusted: boolean): TrustCapabilities {
  return trusted
    ? { fileTools: true, shell: true, verify: true }
    : { fileTools: true, shell: false, verify: false, explanation: UNTRUSTED_EXPLANATION };
}

/** The current trust, and who to tell when it is granted (VS Code never revokes it in a running window). */
export class TrustState {
  private readonly listeners = new Emitter<boolean>();

  constructor(private trustedNow: boolean) {}

  get trusted(): boolean {
    return this.trustedNow;
  }

  get capabilities(): TrustCapabilities {
    return capabilitiesFor(this.trustedNow);
  }

  /** Called from `workspace.onDidGrantWorkspaceTrust`. */
  grant(): void {
    if (this.trustedNow) return;
    this.trustedNow = true;
    this.listeners.fire(true);
  }

  onDidChange(listener: (trusted: boolean) => void): { dispose(): void } {
    return this.listeners.on(listener);
  }
}

/**
 * The shell as the engine sees it: refuses with an explanation while the workspace is untrusted,
 * and runs through `inner` once trust is granted (the same session, no restart).
 */
export class TrustGatedRunner implements CommandRunner {
  constructor(
    private readonly trust: TrustState,
    private readonly inner: CommandRunner,
  ) {}

  get safeModes(): CommandRunner['safeModes'] {
    return this.inner.safeModes;
  }

  run(command: string, options: RunOptions): Promise<RunResult> {
    if (!this.trust.trusted) return Promise.reject(new Error(UNTRUSTED_SHELL_ERROR));
    return this.inner.run(command, options);
  }
}
