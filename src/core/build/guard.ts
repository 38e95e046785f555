/**
 * The build tools' guard: the scope check every write, edit, create or delete passes,
 * the text the person sees (an open document, dirty or not; else the disk), the "changed since you
 * read it" check against the agent's last read, and the ledger's records before and after each
 * write. One instance per build run, handed to the tools in their context.
 */
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import type { Approver, ScopeChoice } from '../lifecycle/ports';
import { failure } from '../tools/result';
import type { ToolResult } from '../tools/types';
import type { BufferWriter } from './ports';
import type { BuildLedger, WriteAction } from './ledger';
import { WorkspaceWatch } from './shellWatch';

export interface BuildGuardDeps {
  readonly ledger: BuildLedger;
  readonly reader: WorkspaceReader;
  readonly writer: BufferWriter;
  /**
   * Writes bytes to disk, never through an editor: putting back what a shell command changed on
   * disk must not go through an open document that may not have caught up with the disk yet.
   * Defaults to `writer`.
   */
  readonly diskWriter?: WorkspaceWriter;
  readonly approver?: Approver;
  /** False in headless runs: nobody can be asked. */
  readonly interactive: boolean;
  /** The person chose "stop and replan": the session opens planning with this reason once the turn ends. */
  readonly onReplan?: (reason: string) => void;
}

/** The current content of a file as the person sees it. */
export interface CurrentText {
  readonly data: Uint8Array;
  /** An open editor holds unsaved changes. */
  readonly dirty: boolean;
  /** An open editor's text (as opposed to the disk's). */
  readonly open: boolean;
}

/** Why a change may not stand: the build was stopped to replan, the file is out of scope, or the person chose to replan now. */
export type ScopeRefusal =
  | { readonly kind: 'stopped'; readonly reason: string }
  | { readonly kind: 'out_of_scope'; readonly reason: string }
  | { readonly kind: 'replan'; readonly reason: string };

export function pastTense(action: WriteAction): string {
  return action === 'create' ? 'created' : action === 'delete' ? 'deleted' : action === 'edit' ? 'edited' : 'wrote';
}

export const STALE_MESSAGE = 'the file changed since you read it; read it again';

const encoder = new TextEncoder();

export class BuildGuard {
  private watch: WorkspaceWatch | undefined;

  constructor(readonly deps: BuildGuardDeps) {}

  get ledger(): BuildLedger {
    return this.deps.ledger;
  }

  /** The workspace scans that tell what a shell command changed (one per build: it caches hashes). */
  get shellWatch(): WorkspaceWatch {
    const ledger = this.deps.ledger;
    this.watch ??= new WorkspaceWatch(this.deps.reader, ledger.root, ledger.store, () => ledger.now());
    return this.watch;
  }

  /** The open document's text (dirty or not) when an editor holds `abs`, else the file on disk. */
  async readCurrent(abs: string): Promise<CurrentText | undefined> {
    const open = await this.deps.writer.openText?.(abs);
    if (open) return { data: encoder.encode(open.text), dirty: open.dirty, open: true };
    const stat = await this.deps.reader.stat(abs);
    if (!stat || stat.type !== 'file') return undefined;
    return { data: await this.deps.reader.readFile(abs), dirty: false, open: false };
  }

  /**
   * Undefined when the build may write `rel`; otherwise the tool's refusal. In scope, or already
   * allowed: yes. Out of scope: `record` allows and records it, `strict` refuses, `ask` puts it to
   * the person (allow this file, allow for the rest of the build, stop and replan).
   */
  async admit(tool: string, rel: string, action: WriteAction, signal?: AbortSignal): Promise<ToolResult | undefined> {
    const refused = await this.decide(rel, action, signal);
    if (!refused) return undefined;
    if (refused.kind === 'stopped') {
      return failure(
        `${tool} refused: the person stopped this build to replan (${refused.reason}). Make no more changes; ` +
          'reply with a one-line summary of what was done so far.',
        { blocked: true },
      );
    }
    if (refused.kind === 'replan') {
      // The person's choice ends the turn here: no closing reply is asked of the model.
      return failure(`${tool} refused: the person chose to stop and replan because ${refused.reason}.`, {
        blocked: true,
        endsTurn: `the person chose to stop and replan (${refused.reason})`,
      });
    }
    return failure(
      `${tool} refused: ${rel} is outside the approved plan's scope (${this.scopeText()}); ${refused.reason}. ` +
        'If the change is needed, propose a revised plan that names this file (a <proposed_plan> block); otherwise ' +
        'keep to the files the plan names.',
      { blocked: true },
    );
  }

  /** The approved plan's scope entries as written, for messages. */
  scopeText(): string {
    const scope = (this.deps.ledger.scope?.entries ?? []).map((e) => e.pattern);
    return scope.length > 0 ? scope.join(', ') : '(no files)';
  }

  /**
   * The scope decision for one change: undefined when it may stand (recorded as drift when out of
   * scope), else why not. `command` is set for a change a shell command already made
   * (`run_command`): the person is asked about what happened, and a refusal undoes it.
   */
  async decide(
    rel: string,
    action: WriteAction,
    signal?: AbortSignal,
    command?: string,
  ): Promise<ScopeRefusal | undefined> {
    const ledger = this.deps.ledger;
    if (ledger.replanReason !== undefined) return { kind: 'stopped', reason: ledger.replanReason };
    if (ledger.inScope(rel)) return undefined;
    const earlier = ledger.alreadyAllowed(rel);
    if (earlier) {
      ledger.recordDrift(rel, action, earlier, command);
      return undefined;
    }
    if (ledger.mode === 'record') {
      ledger.recordDrift(rel, action, 'recorded (scope mode record)', command);
      return undefined;
    }
    if (ledger.mode === 'strict') return { kind: 'out_of_scope', reason: 'scope mode is strict' };
    const ask = this.deps.approver?.approveScope;
    if (!this.deps.interactive || !ask) {
      return { kind: 'out_of_scope', reason: 'no one can allow out-of-scope writes in this session' };
    }
    let choice: ScopeChoice;
    try {
      choice = await ask.call(
        this.deps.approver,
        {
          path: rel,
          action,
          scope: (ledger.scope?.entries ?? []).map((e) => e.pattern),
          ...(ledger.step !== undefined ? { step: ledger.step } : {}),
          ...(command !== undefined ? { command } : {}),
        },
        signal,
      );
    } catch (err) {
      if (signal?.aborted) throw err;
      return { kind: 'out_of_scope', reason: 'the person was not asked' };
    }
    if (choice === 'allow_file') {
      ledger.allowFile(rel);
      ledger.recordDrift(rel, action, 'person (this file)', command);
      return undefined;
    }
    if (choice === 'allow_build') {
      ledger.allowForBuild();
      ledger.recordDrift(rel, action, 'person (rest of the build)', command);
      return undefined;
    }
    const reason =
      command !== undefined
        ? `\`${command}\` ${pastTense(action)} ${rel}, outside the approved plan's scope`
        : `the build wanted to ${action} ${rel}, outside the approved plan's scope`;
    ledger.replanReason = reason;
    this.deps.onReplan?.(reason);
    return { kind: 'replan', reason };
  }

  /** The "changed since you read it" refusal, when the agent's last read of `rel` no longer matches. */
  stale(tool: string, rel: string, data: Uint8Array): ToolResult | undefined {
    if (this.deps.ledger.freshSinceRead(rel, data)) return undefined;
    return failure(`${tool}: ${rel}: ${STALE_MESSAGE} (read_file), then make the edit against what it holds now`);
  }
}
