/** A build guard over a temporary workspace, with a scripted person and an in-memory checkpoint store. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ScopeChoice, ScopeRequest } from '../../src/core/lifecycle/ports';
import { BuildGuard } from '../../src/core/build/guard';
import { BuildLedger } from '../../src/core/build/ledger';
import type { BufferWriter, CheckpointStore } from '../../src/core/build/ports';
import { scopeOfPlan, type ScopeMode } from '../../src/core/build/scope';
import { validatePlan } from '../../src/core/plan/validator';
import type { WorkspaceWriter } from '../../src/core/ports';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import type { TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor, ScriptedApprover } from '../sessionTools/helpers';

export function planWith(steps: readonly string[], validation: readonly string[] = ['tests: npm test']): string {
  return [
    '# Plan',
    '## Summary',
    'Change things.',
    '## Implementation Steps',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '## Test Cases and Validation',
    ...validation.map((v) => `- ${v}`),
    '## Assumptions and Defaults',
    '- none',
    '',
  ].join('\n');
}

export function scopeOf(markdown: string) {
  const r = validatePlan(markdown);
  if (!r.valid) throw new Error(`test plan invalid: ${r.errors.map((e) => e.message).join('; ')}`);
  return scopeOfPlan(r.summary);
}

/** Answers scope requests with the scripted choices and records each request. */
export class ScopeApprover extends ScriptedApprover {
  readonly scopeRequests: ScopeRequest[] = [];
  constructor(private readonly choices: ScopeChoice[]) {
    super(true);
  }
  async approveScope(request: ScopeRequest): Promise<ScopeChoice> {
    this.scopeRequests.push(request);
    const next = this.choices.shift();
    if (!next) throw new Error('ScopeApprover: asked more often than scripted');
    return next;
  }
}

export class MemoryCheckpointStore implements CheckpointStore {
  readonly blobs = new Map<string, Uint8Array>();
  manifest: string | undefined;
  async put(hash: string, data: Uint8Array): Promise<void> {
    this.blobs.set(hash, new Uint8Array(data));
  }
  async get(hash: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(hash);
  }
  async writeManifest(text: string): Promise<void> {
    this.manifest = text;
  }
  async readManifest(): Promise<string | undefined> {
    return this.manifest;
  }
}

export interface GuardedContext {
  readonly ctx: AgentToolContext;
  readonly ledger: BuildLedger;
  readonly approver: ScopeApprover;
  readonly store: CheckpointStore;
  readonly replans: string[];
}

export function guardedContext(
  ws: TempWorkspace,
  o: {
    mode: ScopeMode;
    plan?: string;
    choices?: ScopeChoice[];
    interactive?: boolean;
    writer?: BufferWriter;
    store?: CheckpointStore;
    /** The session clock (a fixed 1000 unless given). */
    now?: () => number;
    diskWriter?: WorkspaceWriter;
  },
): GuardedContext {
  const store = o.store ?? new MemoryCheckpointStore();
  const ledger = new BuildLedger({
    session: 's1',
    root: ws.root,
    mode: o.mode,
    ...(o.plan !== undefined ? { scope: scopeOf(o.plan) } : {}),
    store,
    now: o.now ?? (() => 1000),
  });
  const approver = new ScopeApprover(o.choices ?? []);
  const replans: string[] = [];
  const writer = o.writer ?? new NodeWorkspaceWriter();
  const build = new BuildGuard({
    ledger,
    reader: ws.reader,
    writer,
    approver,
    interactive: o.interactive ?? true,
    onReplan: (r) => replans.push(r),
    ...(o.diskWriter ? { diskWriter: o.diskWriter } : {}),
  });
  const ctx = agentContextFor(ws, { writer, approver, build });
  return { ctx, ledger, approver, store, replans };
}

/** Every file under `root`, workspace-relative, with its bytes (base64): a tree compared byte for byte. */
export function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out[relative(root, abs).split('\\').join('/')] = readFileSync(abs).toString('base64');
    }
  };
  walk(root);
  return out;
}
