import type { EventBus } from '../events/bus';
import type { Approver } from '../lifecycle/ports';
import { dispatchCall, type DispatchContext } from './dispatch';
import type { AskAction, GuardAction, StopAction, TurnGuards } from './guards';
import { ContextKeeper, DEFAULT_COMPACT_AT_PERCENT } from './contextKeeper';
import { ModelError } from './model';
import type { ChatMessage, ModelClient, ModelRequest, ToolSchema, Usage } from './model';
import { synthesisDirective } from './prompt';
import { requestView } from './requestRepair';
import { streamResponse, type StreamedResponse } from './streamResponse';

/** Extra calls or loops granted per "grant more" answer when the Approver does not say how many. */
export const DEFAULT_GRANT = 50;

export interface TurnDeps {
  readonly model: ModelClient;
  readonly modelName: string;
  readonly bus: EventBus;
  readonly guards: TurnGuards;
  readonly approver: Approver;
  readonly systemPrompt: string;
  /** The tool schemas, computed once per session so the request prefix never changes. */
  readonly toolSchemas: readonly ToolSchema[];
  readonly dispatch: Omit<DispatchContext, 'turnId' | 'guards' | 'bus'>;
  readonly newId: (prefix: string) => string;
  /** Tokens of the model's context window (a provider that knows its model's window overrides it). */
  readonly contextWindow: number;
  /** Compact the request view past this share of the context window, in percent (default 80). */
  readonly compactAtPercent?: number;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
  /**
   * Called after every model response with its usage (when reported) and the context keeper's
   * estimate of the request's prompt tokens (as sent, compacted; calibrated by earlier usage), the
   * one measure of the context share when a provider reports none.
   */
  readonly onUsage?: (usage: Usage | undefined, estimatedPromptTokens: number) => void;
  /** How full the context window is now, in percent, for budget snapshots. */
  readonly contextPercent: () => number;
  /** The tool-free synthesis request (planning asks for a plan, building for a closing summary). */
  readonly synthesisDirective?: (reason: string) => string;
}

export interface TurnOptions {
  readonly turnId: string;
  /** Start with a tool-free pass carrying this directive (repair, condense, synthesis requests). */
  readonly toolFreeDirective?: string;
  /**
   * Called after each complete tool batch, once every call of the batch has its result on the
   * history (the session checkpoints the thread there, so a resumed turn repeats no call).
   */
  readonly afterBatch?: () => Promise<void>;
}

export interface TurnResult {
  /** The last response, the one without tool calls (undefined when the turn stopped first). */
  readonly final?: StreamedResponse;
  /** The budget that stopped the turn, when one did. */
  readonly stop?: StopAction;
  /** A tool-free synthesis pass ran in this turn (and which guard asked for it). */
  readonly synthesis?: string;
  /** Consecutive empty responses at the end of the turn (2 means the synthesis also came back empty). */
  readonly emptyResponses: number;
  /** The person ended the turn from inside a tool call, with the reason; no closing reply was asked. */
  readonly ended?: string;
}

function isEmpty(r: StreamedResponse): boolean {
  return r.visible.trim() === '' && r.plan === undefined && r.toolCalls.length === 0;
}

/**
 * One turn of the agent: model requests and tool batches until the model answers without calling
 * tools, a guard schedules the tool-free synthesis pass, or a budget stops the turn. The history
 * array is the durable thread and is appended to; requests are built from a repaired view of it.
 */
export async function runTurn(history: ChatMessage[], deps: TurnDeps, options: TurnOptions): Promise<TurnResult> {
  const { bus, guards } = deps;
  const turn_id = options.turnId;
  let toolFree = options.toolFreeDirective !== undefined;
  let synthesis: string | undefined = toolFree ? 'directive' : undefined;
  let empties = 0;
  if (options.toolFreeDirective !== undefined) history.push({ role: 'user', content: options.toolFreeDirective });

  const notice = (text: string, level: 'info' | 'warning' = 'info') =>
    bus.emit({ type: 'item.completed', turn_id, item: { id: deps.newId('notice'), kind: 'notice', text, level } });

  // Each failed-closed budget is recorded once per turn (a stop stays sticky for the rest of it).
  const recorded = new Set<string>();
  const exhausted = (stop: StopAction) => {
    if (recorded.has(stop.budget)) return;
    recorded.add(stop.budget);
    bus.emit({ type: 'budget_exhausted', budget: stop.budget, used: stop.used, max: stop.max });
  };

  /** Asks the person for more; returns the follow-up action (continue after a grant, or the denial's stop). */
  const askGrant = async (ask: AskAction): Promise<GuardAction> => {
    const extra = await deps.approver.grantMore(ask.kind, ask.used, ask.max, deps.signal);
    if (extra > 0) {
      const g = guards.grant(ask.kind, extra);
      bus.emit({ type: g.event, granted: g.granted, max: g.max });
      return { type: 'continue' };
    }
    return guards.deny(ask.kind);
  };

  /** Switches to the one tool-free synthesis pass; the directive goes after the complete batch. */
  const startSynthesis = (guard: string, reason: string) => {
    toolFree = true;
    synthesis = guard;
    notice(`Synthesis pass: ${reason}`);
    history.push({ role: 'user', content: (deps.synthesisDirective ?? synthesisDirective)(reason) });
  };

  // One system message for the whole turn: the request prefix is the same object every time, so the
  // model client can tell that only the tail of the thread is new.
  const system: ChatMessage = { role: 'system', content: deps.systemPrompt };
  const ctx: DispatchContext = { ...deps.dispatch, turnId: turn_id, guards, bus };
  const countTokens = deps.model.countTokens?.bind(deps.model);
  const keeper = new ContextKeeper(history, {
    bus,
    turnId: turn_id,
    windowTokens: deps.model.contextWindow?.(deps.modelName) ?? deps.contextWindow,
    compactAtPercent: deps.compactAtPercent ?? DEFAULT_COMPACT_AT_PERCENT,
    fixedChars: deps.systemPrompt.length + JSON.stringify(deps.toolSchemas).length,
    spool: deps.dispatch.toolContext.spool,
    ...(countTokens
      ? {
          countTokens: (view: readonly ChatMessage[]) =>
            countTokens({ model: deps.modelName, messages: [system, ...view], tools: deps.toolSchemas }, deps.signal),
        }
      : {}),
  });

  for (;;) {
    if (!toolFree) {
      let loop = guards.onLoop();
      if (loop.type === 'ask_grant') loop = await askGrant(loop);
      if (loop.type === 'stop_turn') {
        exhausted(loop);
        if (!loop.synthesis) return { stop: loop, emptyResponses: empties };
        startSynthesis(loop.budget, loop.reason);
      }
    }

    // The thread is checked incrementally (per request, only what was appended since), then
    // measured and, past the threshold, compacted into a request view.
    const view = requestView(history);
    const request = (messages: readonly ChatMessage[]): ModelRequest => ({
      model: deps.modelName,
      messages: ([system] as ChatMessage[]).concat(messages),
      tools: deps.toolSchemas,
      ...(toolFree ? { toolChoice: 'none' as const } : {}),
      ...(deps.maxTokens !== undefined ? { maxTokens: deps.maxTokens } : {}),
    });
    const send = (messages: readonly ChatMessage[]) =>
      streamResponse(deps.model, request(messages), bus, { turnId: turn_id, newId: deps.newId }, deps.signal);
    let prepared = await keeper.prepare(view.messages);
    let response: StreamedResponse;
    try {
      response = await send(prepared.messages);
    } catch (err) {
      if (!(err instanceof ModelError) || err.kind !== 'context_length') throw err;
      // The provider says it did not fit: recalibrate from its words, compact harder, once.
      keeper.overflowed(prepared.chars, err.message);
      prepared = await keeper.prepare(view.messages, 'overflow');
      response = await send(prepared.messages);
    }
    if (response.usage) keeper.recordUsage(response.usage.promptTokens, prepared.chars);
    deps.onUsage?.(response.usage, prepared.tokens);
    if (response.usage) {
      const u = guards.onUsage(response.usage);
      if (u.type === 'stop_turn') exhausted(u);
    }
    bus.emit({ type: 'budget.updated', budget: guards.snapshot(deps.contextPercent(), deps.contextWindow) });

    if (isEmpty(response)) {
      empties += 1;
      if (empties >= 2 && toolFree)
        return { final: response, emptyResponses: empties, ...(synthesis ? { synthesis } : {}) };
      if (empties === 2) {
        if (guards.claimSynthesis('empty_response')) {
          startSynthesis('empty_response', 'two empty responses in a row');
        } else {
          // The turn's one synthesis pass was already spent: no further recovery.
          return { final: response, emptyResponses: empties, ...(synthesis ? { synthesis } : {}) };
        }
      }
      continue; // the first empty response gets the ordinary retry
    }
    empties = 0;

    // A tool-free pass never runs tools, even if the model asks for them.
    const calls = toolFree ? [] : response.toolCalls;
    history.push({
      role: 'assistant',
      content: response.response,
      ...(calls.length ? { toolCalls: calls } : {}),
      ...(response.roundTrip ? { roundTrip: response.roundTrip } : {}),
    });
    if (calls.length === 0) return { final: response, emptyResponses: 0, ...(synthesis ? { synthesis } : {}) };

    let pendingSynthesis: { guard: string; reason: string } | undefined;
    let stop: StopAction | undefined;
    let ended: string | undefined;
    for (const call of calls) {
      if (ended !== undefined || stop) {
        history.push({ role: 'tool', toolCallId: call.id, content: `Not run: ${ended ?? stop!.reason}` });
        continue;
      }
      let result = await dispatchCall(call, ctx);
      while (result.kind === 'pending') {
        const next = result.action.type === 'ask_grant' ? await askGrant(result.action) : result.action;
        if (next.type === 'stop_turn') {
          stop = next;
          exhausted(next);
          break;
        }
        result = await dispatchCall(call, ctx);
      }
      if (result.kind === 'pending') {
        history.push({ role: 'tool', toolCallId: call.id, content: `Not run: ${stop?.reason ?? 'budget exhausted'}` });
        continue;
      }
      history.push({ role: 'tool', toolCallId: call.id, content: result.content });
      if (result.endsTurn !== undefined) {
        ended = result.endsTurn;
        continue;
      }
      const action = result.action;
      if (action.type === 'synthesis') pendingSynthesis ??= { guard: action.guard, reason: action.reason };
      else if (action.type === 'stop_turn') {
        stop = action;
        exhausted(action);
      }
    }
    bus.emit({ type: 'budget.updated', budget: guards.snapshot(deps.contextPercent(), deps.contextWindow) });
    await options.afterBatch?.();
    if (ended !== undefined) return { ended, emptyResponses: 0, ...(synthesis ? { synthesis } : {}) };

    // Directives go after the complete batch, never between a call and its result.
    if (stop) {
      if (!stop.synthesis) return { stop, emptyResponses: 0, ...(synthesis ? { synthesis } : {}) };
      startSynthesis(stop.budget, stop.reason);
    } else if (pendingSynthesis) {
      startSynthesis(pendingSynthesis.guard, pendingSynthesis.reason);
    }
  }
}
