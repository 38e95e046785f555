import type { EventBus } from '../events/bus';
import { lazyChildSignal } from './abort';
import { checkPlanningToolCall, judgeCommand, type Judgement, type Verdict } from '../gate';
import { previewOf, utf8Length } from '../spool';
import { parseToolArguments, runTool, type ToolContext, type ToolDefinition, type ToolResult } from '../tools';
import { gateContextOf } from '../tools/types';
import { unknownToolCall } from '../tools/describe';
import { changeTitle } from '../build/fileChange';
import type { AskAction, GuardAction, OutcomeKind, StopAction, TurnGuards } from './guards';
import { metadataStub } from './guards';
import { categoryOf } from './guards/commandShape';
import type { ToolCall } from './model';

/** What the dispatcher needs besides the call: the tools on offer, their context, the gate's inputs. */
export interface DispatchContext {
  readonly mode: 'plan' | 'build';
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly toolContext: ToolContext;
  readonly guards: TurnGuards;
  readonly bus: EventBus;
  readonly turnId: string;
  /** Workspace-relative plans directory, for the planning write policy. */
  readonly plansDir: string;
  /** Decides a call while building (the build policy); planning always uses the read-only gate. */
  readonly buildPolicy?: (tool: ToolDefinition, args: Record<string, unknown>, shell?: Judgement) => Promise<Verdict>;
  /** Told about calls to tools that do not exist (e.g. a model trying to approve its own plan). */
  readonly onUnknownTool?: (name: string) => string | undefined;
  /**
   * After a call ran: text to add to its result once (the repository's instructions for the place
   * it read, listed or changed). Added after the preview cut, so it is never cut away.
   */
  readonly afterCall?: (
    call: { readonly id: string; readonly name: string; readonly turnId: string },
    args: Record<string, unknown>,
  ) => Promise<string | undefined>;
}

export type DispatchResult =
  | {
      readonly kind: 'done';
      readonly content: string;
      readonly action: GuardAction;
      /** The person ended the turn inside this call (`ToolResult.endsTurn`). */
      readonly endsTurn?: string;
    }
  /** The call is pending on a budget decision (ask the person, or stop): it did not run or count. */
  | { readonly kind: 'pending'; readonly action: AskAction | StopAction };

/** A preview smaller than this says nothing useful; the model gets the metadata stub instead. */
const MIN_USEFUL_PREVIEW = 512;

const ALLOW_ALL: Verdict = { allowed: true, reason: 'allowed', rule: 'tool' };

function outcomeKind(tool: ToolDefinition | undefined): OutcomeKind {
  if (!tool) return 'other';
  if (tool.name === 'read_spool') return 'spool';
  return tool.kind;
}

/** A small stable hash of a result body, so the guards can tell a result that only repeats another. */
export function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length.toString(36)}:${(h >>> 0).toString(36)}`;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Runs one tool call the model asked for: budget admission, the gate (decided before anything
 * runs), the tool, the preview charge, and the guards' verdict. Emits the tool-call item with its
 * verdict and the tool-result item.
 */
export async function dispatchCall(call: ToolCall, ctx: DispatchContext): Promise<DispatchResult> {
  const tool = ctx.tools.get(call.name);
  // The arguments are parsed once here, and a shell command judged once: the gate's verdict and
  // parse go to the guards, the policy and the tool alike.
  const parsedArgs = parseToolArguments(call.arguments);
  const args = asRecord(parsedArgs.ok ? parsedArgs.value : undefined);
  const kind = outcomeKind(tool);
  const { bus, turnId: turn_id, guards } = ctx;
  const command = args['command'];
  const shell =
    tool?.kind === 'shell' && typeof command === 'string'
      ? await judgeCommand(command, gateContextOf(ctx.toolContext))
      : undefined;
  // A command the gate could not even scan has no segments; the guards read that, not a scan of their own.
  const shape = shell ? (shell.shape ?? []) : undefined;

  const admission = guards.beforeCall({ tool: call.name, kind, args, ...(shape ? { shell: shape } : {}) });
  if (!admission.admit && admission.action) return { kind: 'pending', action: admission.action };

  let verdict: Verdict;
  if (!tool) {
    const refusal = ctx.onUnknownTool?.(call.name);
    const names = [...ctx.tools.keys()].join(', ');
    const reason = refusal ?? `unknown tool '${call.name}'; available tools: ${names}`;
    verdict = { allowed: false, reason: `blocked: ${reason}`, rule: refusal !== undefined ? 'lifecycle' : 'tool' };
  } else if (ctx.mode === 'plan' && tool.mcp) {
    // Offered while planning only when it declares itself read-only and the person allowed it.
    verdict = tool.mcp.planning
      ? { allowed: true, reason: `'${tool.mcp.server}/${tool.mcp.tool}' is read-only and allowed by you`, rule: 'tool' }
      : {
          allowed: false,
          reason: `blocked: '${tool.mcp.server}/${tool.mcp.tool}' does not declare itself read-only, so it never runs while planning`,
          rule: 'tool',
        };
  } else if (ctx.mode === 'plan') {
    verdict = await checkPlanningToolCall(
      { name: tool.name, kind: tool.kind },
      args,
      { ...gateContextOf(ctx.toolContext), plansDir: ctx.plansDir },
      shell,
    );
  } else {
    verdict = ctx.buildPolicy ? await ctx.buildPolicy(tool, args, shell) : ALLOW_ALL;
  }

  const described = tool ? tool.describe(args) : unknownToolCall(call.name);
  const callItem = {
    id: `call-${call.id}`,
    kind: 'tool_call' as const,
    tool: {
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
      title: described.title,
      subject: described.subject,
    },
    verdict: { allowed: verdict.allowed, reason: verdict.reason },
  };
  bus.emit({ type: 'item.started', turn_id, item: callItem });

  let result: ToolResult;
  if (!admission.admit) {
    result = { ok: false, content: admission.stub, bytes: utf8Length(admission.stub) };
  } else if (!verdict.allowed || !tool) {
    result = { ok: false, content: verdict.reason, bytes: utf8Length(verdict.reason), blocked: true };
  } else {
    const limit = guards.resultLimit();
    const child = lazyChildSignal(ctx.toolContext.signal);
    try {
      const toolContext = { ...ctx.toolContext, previewLimitBytes: limit, ...(shell ? { shell } : {}) };
      result = await runTool(
        tool,
        parsedArgs.ok ? { parsed: parsedArgs.value } : call.arguments,
        child.withSignal(toolContext),
      );
    } finally {
      child.dispose();
    }
    const size = utf8Length(result.content);
    const shown = guards.previewFor(size);
    if (shown < MIN_USEFUL_PREVIEW && shown < size) {
      const stub = metadataStub(
        call.name,
        result.bytes,
        guards.stats.previewBytes.max,
        result.spoolId ? `spool id ${result.spoolId}` : undefined,
      );
      result = { ...result, content: stub };
    } else if (shown < size) {
      result = { ...result, content: previewOf(result.content, shown, ctx.toolContext.spool).content };
    }
    if (result.ok && ctx.afterCall) {
      const added = await ctx.afterCall({ id: call.id, name: call.name, turnId: turn_id }, args);
      if (added !== undefined) result = { ...result, content: `${result.content}\n\n${added}` };
    }
  }
  bus.emit({ type: 'item.completed', turn_id, item: callItem });
  bus.emit({
    type: 'item.completed',
    turn_id,
    item: {
      id: `result-${call.id}`,
      kind: 'tool_result',
      result: {
        callId: call.id,
        ok: result.ok,
        bytes: result.bytes,
        preview: result.content.slice(0, 2000),
        outcome: !admission.admit
          ? 'skipped'
          : !verdict.allowed || !tool
            ? 'blocked'
            : result.ok
              ? 'ok'
              : result.blocked === true
                ? 'refused'
                : 'failed',
        ...(result.ok && result.change ? { title: changeTitle(result.change), change: result.change } : {}),
      },
    },
  });

  const blocked = result.blocked === true || !verdict.allowed;
  const action =
    admission.admit || blocked
      ? guards.afterCall({
          tool: call.name,
          kind,
          args,
          blocked,
          ok: result.ok,
          lowSignal: result.lowSignal === true,
          resultHash: result.ok ? hashText(result.content) : '',
          bytes: result.bytes,
          category: categoryOf({ tool: call.name, kind, args, ...(shape ? { shell: shape } : {}) }),
          ...(shape ? { shell: shape } : {}),
        })
      : ({ type: 'continue' } as const);
  return {
    kind: 'done',
    content: result.content,
    action,
    ...(result.endsTurn !== undefined ? { endsTurn: result.endsTurn } : {}),
  };
}
