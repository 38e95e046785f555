import type { EventBus } from '../events/bus';
import { childSignal } from './abort';
import { PlanStreamParser, finalizeResponse } from '../plan/parser';
import type { FinishReason, ModelClient, ModelRequest, RoundTrip, ToolCall, Usage } from './model';

/** One streamed model response, reconciled: visible prose, the plan (if any), calls and usage. */
export interface StreamedResponse {
  /** Visible prose with plan markup removed. */
  readonly visible: string;
  /** The plan text when the response held a `<proposed_plan>` block (unclosed counts). */
  readonly plan?: string;
  /** The assistant message to store: visible prose plus one canonical plan block. */
  readonly response: string;
  readonly reasoning: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: FinishReason;
  readonly usage?: Usage;
  /** Provider fields to store with the assistant message and send back (never shown). */
  readonly roundTrip?: RoundTrip;
}

export interface StreamIds {
  readonly turnId: string;
  /** Makes a fresh item id. */
  readonly newId: (prefix: string) => string;
  /** A stream silent this long is announced as waiting (`model.waiting`); default `WAITING_AFTER_MS`. */
  readonly waitingAfterMs?: number;
}

/** How long a stream may send nothing before the person is told the model is being waited for. */
export const WAITING_AFTER_MS = 5000;

/**
 * Sends one request and turns the stream into thread events: visible prose as `item.*` of kind
 * `assistant_text`, thinking as `reasoning`, plan text as `plan.delta`. Plan markup never reaches
 * the visible transcript; the completed content wins over the streamed text.
 */
export async function streamResponse(
  model: ModelClient,
  request: ModelRequest,
  bus: EventBus,
  ids: StreamIds,
  signal?: AbortSignal,
): Promise<StreamedResponse> {
  const parser = new PlanStreamParser();
  const turn_id = ids.turnId;
  let textId: string | undefined;
  let reasoningId: string | undefined;
  let reasoning = '';

  let visible = '';
  const emitVisible = (delta: string) => {
    if (delta === '') return;
    visible += delta;

    if (textId === undefined) {
      textId = ids.newId('msg');
      bus.emit({ type: 'item.started', turn_id, item: { id: textId, kind: 'assistant_text', text: '' } });
    }
    bus.emit({ type: 'item.updated', turn_id, item: { id: textId, kind: 'assistant_text', delta } });
  };

  let done:
    | {
        finishReason: FinishReason;
        content: string;
        toolCalls: readonly ToolCall[];
        usage?: Usage;
        roundTrip?: RoundTrip;
      }
    | undefined;
  const child = childSignal(signal);
  // A silent stream is announced once it has been silent for `waitingAfter`, and again when it moves.
  const waitingAfter = ids.waitingAfterMs ?? WAITING_AFTER_MS;
  let waiting = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      waiting = true;
      bus.emit({ type: 'model.waiting', turn_id, waiting: true, silent_ms: waitingAfter });
    }, waitingAfter);
  };
  const moved = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting) {
      waiting = false;
      bus.emit({ type: 'model.waiting', turn_id, waiting: false, silent_ms: 0 });
    }
  };
  arm();
  try {
    for await (const event of model.stream(request, child.signal)) {
      moved();
      arm();
      switch (event.type) {
        case 'text': {
          const chunk = parser.push(event.delta);
          emitVisible(chunk.visible);
          if (chunk.plan !== '') bus.emit({ type: 'plan.delta', turn_id, delta: chunk.plan });
          break;
        }
        case 'reasoning':
          reasoning += event.delta;
          if (reasoningId === undefined) {
            reasoningId = ids.newId('think');
            bus.emit({ type: 'item.started', turn_id, item: { id: reasoningId, kind: 'reasoning', text: '' } });
          }
          bus.emit({ type: 'item.updated', turn_id, item: { id: reasoningId, kind: 'reasoning', delta: event.delta } });
          break;
        case 'retry':
          bus.emit({
            type: 'model.retrying',
            turn_id,
            attempt: event.attempt,
            max_attempts: event.maxAttempts,
            wait_ms: event.waitMs,
            reason: event.reason,
          });
          break;
        case 'done':
          done = event;
          break;
        default:
          break;
      }
    }
  } catch (err) {
    // Stopped or failed mid-stream: what was shown so far is complete as it stands (no cursor, no
    // running "Thinking…" left behind).
    if (reasoningId !== undefined) {
      bus.emit({ type: 'item.completed', turn_id, item: { id: reasoningId, kind: 'reasoning', text: reasoning } });
    }
    if (textId !== undefined) {
      bus.emit({ type: 'item.completed', turn_id, item: { id: textId, kind: 'assistant_text', text: visible } });
    }
    throw err;
  } finally {
    moved();
    child.dispose();
  }
  if (done === undefined) throw new Error('the model stream ended without a final event');

  const tail = parser.end();
  emitVisible(tail.visible);
  if (tail.plan !== '') bus.emit({ type: 'plan.delta', turn_id, delta: tail.plan });
  const final = finalizeResponse(parser, done.content);

  if (reasoningId !== undefined) {
    bus.emit({ type: 'item.completed', turn_id, item: { id: reasoningId, kind: 'reasoning', text: reasoning } });
  }
  if (textId !== undefined || final.visible.trim() !== '') {
    if (textId === undefined) {
      textId = ids.newId('msg');
      bus.emit({ type: 'item.started', turn_id, item: { id: textId, kind: 'assistant_text', text: '' } });
    }
    // The completed text wins: a client that missed deltas, or saw streamed text the provider
    // later corrected, renders this.
    bus.emit({ type: 'item.completed', turn_id, item: { id: textId, kind: 'assistant_text', text: final.visible } });
  }
  return {
    visible: final.visible,
    ...(final.plan !== undefined ? { plan: final.plan } : {}),
    response: final.response,
    reasoning,
    toolCalls: done.toolCalls,
    finishReason: done.finishReason,
    ...(done.usage ? { usage: done.usage } : {}),
    ...(done.roundTrip ? { roundTrip: done.roundTrip } : {}),
  };
}
