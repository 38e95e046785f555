import type { CallDescription } from './describe';
import type { z } from 'zod';
import type { CommandRunner, Searcher, WorkspaceReader } from '../ports';
import type { GateContext, Judgement } from '../gate';
import type { Spool } from '../spool';
import type { BuildGuard } from '../build/guard';
import type { FileChange } from '../build/fileChange';

export type ToolKind = 'read' | 'list' | 'search' | 'interview' | 'tracker' | 'shell' | 'write' | 'other';

/** What a tool may touch. The host builds one per turn; tools never reach the world any other way. */
export interface ToolContext {
  readonly reader: WorkspaceReader;
  /** What the gate judges shell commands on when `reader` filters its listings (see `SessionDeps.gateFs`). */
  readonly gateFs?: GateContext['fs'];
  readonly searcher: Searcher;
  /** Absent in hosts that cannot run processes: `exec_command` then says so. */
  readonly runner?: CommandRunner;
  readonly trusted: boolean;
  /** The user's home folder, so the gate can resolve `~` arguments. */
  readonly home?: string;
  readonly signal?: AbortSignal;
  /** Per-result preview limit in bytes (8 KiB while planning). Larger results are spooled. */
  readonly previewLimitBytes: number;
  /** Where oversized results go; `read_spool` pages through them. */
  readonly spool: Spool;
  /** Default 30000. */
  readonly execTimeoutMs?: number;
  /** Safe modes the host's programs support (GNU sed's `--sandbox`), switched on by the gate. */
  readonly safeModes?: GateContext['safeModes'];
  /** The gate's judgement of this call's shell command, made once by the dispatcher. */
  readonly shell?: Judgement;
  /** While building: the scope guard, the text the person sees and the agent's last reads. */
  readonly build?: BuildGuard;
}

/** The gate's context for a tool context's workspace. */
export function gateContextOf(ctx: ToolContext): GateContext {
  // The object is passed on unread: a host may find out a safe mode only when the gate asks.
  const safeModes = ctx.safeModes ?? ctx.runner?.safeModes;
  return {
    roots: ctx.reader.roots,
    trusted: ctx.trusted,
    fs: ctx.gateFs ?? ctx.reader,
    ...(ctx.home !== undefined ? { home: ctx.home } : {}),
    ...(safeModes ? { safeModes } : {}),
  };
}

export interface ToolResult {
  readonly ok: boolean;
  /** What the model sees (at most the preview limit, plus a spool reference when cut). */
  readonly content: string;
  /** UTF-8 size of the full result before any preview was cut. */
  readonly bytes: number;
  /** Set when the full result was spooled. */
  readonly spoolId?: string;
  /** An empty result, a search miss, a "not found": counts toward the low-signal guard. */
  readonly lowSignal?: boolean;
  /** The read-only gate refused the call before anything ran. */
  readonly blocked?: boolean;
  /**
   * The person ended the turn from inside this call (e.g. "stop and replan" on a scope request),
   * with the reason: the rest of the batch is not run and no further model request is made.
   */
  readonly endsTurn?: string;
  /** What a file tool changed: lines added and removed, and the diff, measured once here. */
  readonly change?: FileChange;
}

export interface ToolDefinition<A = unknown> {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolKind;
  readonly schema: z.ZodType<A>;
  /** The JSON Schema the model sees, when the arguments are described elsewhere (an MCP server's tool). */
  readonly parameters?: Record<string, unknown>;
  /** An MCP server's tool: which one, and whether it may run while planning. */
  readonly mcp?: { readonly server: string; readonly tool: string; readonly planning: boolean };
  run(args: A, ctx: ToolContext): Promise<ToolResult>;
  /** The call in a person's words, from its arguments as the model sent them (they may not validate). */
  describe(args: Readonly<Record<string, unknown>>): CallDescription;
}
