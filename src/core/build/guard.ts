/**
 * The build tools' guard (issue 16): the scope check every write, edit, create or delete passes,
 * the text the person sees (an open document, dirty or not; else the disk), the "changed since you
 * read it" check against the agent's last read, and the ledger's records before and after each
 * write. One instance per build run, handed to the tools in their context.
 */
import type { WorkspaceReader } from '../ports';
import type { Approver, ScopeChoice } from '../lifecycle/ports';
import { failure } from '../tools/result';
import type { ToolResult } from '../tools/types';
import type { BufferWriter } from './ports';
import type { BuildLedger, WriteAction } from './ledger';

export interface BuildGuardDeps {
  readonly ledger: BuildLedger;
  readonly reader: WorkspaceReader;
  readonly writer: BufferWriter;
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

export const STALE_MESSAGE = 'the file changed since you read it; read it again';

const encoder = new TextEncoder();

export class BuildGuard {
  constructor(readonly deps: BuildGuardDeps) {}

  get ledger(): BuildLedger {
    return this.deps.ledger;
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
    const ledger = this.deps.ledger;
    if (ledger.replanReason !== undefined) {
      return failure(
        `${tool} refused: the person stopped this build to replan (${ledger.replanReason}). Make no more changes; ` +
          'reply with a one-line summary of what was done so far.',
        { blocked: true },
      );
    }
    if (ledger.inScope(rel)) return undefined;
    const earlier = ledger.alreadyAllowed(rel);
    if (earlier) {
      ledger.recordDrift(rel, action, earlier);
      return undefined;
    }
    const scope = (ledger.scope?.entries ?? []).map((e) => e.pattern);
    const scopeText = scope.length > 0 ? scope.join(', ') : '(no files)';
    if (ledger.mode === 'record') {
      ledger.recordDrift(rel, action, 'recorded (scope mode record)');
      return undefined;
    }
    const refusal = (why: string) =>
      failure(
        `${tool} refused: ${rel} is outside the approved plan's scope (${scopeText}); ${why}. ` +
          'If the change is needed, propose a revised plan that names this file (a <proposed_plan> block); otherwise ' +
          'keep to the files the plan names.',
        { blocked: true },
      );
    if (ledger.mode === 'strict') return refusal('scope mode is strict');
    const ask = this.deps.approver?.approveScope;
    if (!this.deps.interactive || !ask) return refusal('no one can allow out-of-scope writes in this session');
    let choice: ScopeChoice;
    try {
      choice = await ask.call(
        this.deps.approver,
        { path: rel, action, scope, ...(ledger.step !== undefined ? { step: ledger.step } : {}) },
        signal,
      );
    } catch (err) {
      if (signal?.aborted) throw err;
      return refusal('the person was not asked');
    }
    if (choice === 'allow_file') {
      ledger.allowFile(rel);
      ledger.recordDrift(rel, action, 'person (this file)');
      return undefined;
    }
    if (choice === 'allow_build') {
      ledger.allowForBuild();
      ledger.recordDrift(rel, action, 'person (rest of the build)');
      return undefined;
    }
    const reason = `the build wanted to ${action} ${rel}, outside the approved plan's scope`;
    ledger.replanReason = reason;
    this.deps.onReplan?.(reason);
    return failure(
      `${tool} refused: the person chose to stop and replan because ${reason}. Make no more changes; reply with a ` +
        'one-line summary of what was done so far and why the plan needs this file.',
      { blocked: true },
    );
  }

  /** The "changed since you read it" refusal, when the agent's last read of `rel` no longer matches. */
  stale(tool: string, rel: string, data: Uint8Array): ToolResult | undefined {
    if (this.deps.ledger.freshSinceRead(rel, data)) return undefined;
    return failure(`${tool}: ${rel}: ${STALE_MESSAGE} (read_file), then make the edit against what it holds now`);
  }
}
