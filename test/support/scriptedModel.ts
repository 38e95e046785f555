/** Small helpers for tests that read a `ModelClient` stream. */
import type { ModelStreamEvent } from '../../src/core/agent/model';

export type DoneEvent = Extract<ModelStreamEvent, { type: 'done' }>;

export interface Collected {
  readonly events: ModelStreamEvent[];
  /** What the stream threw, if it threw. */
  readonly error: unknown;
  /** The joined text deltas. */
  readonly text: string;
  readonly reasoning: string;
  readonly done: DoneEvent | undefined;
}

/** Reads a stream to its end (or its error) and summarises it. */
export async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
  onEvent?: (e: ModelStreamEvent) => void,
): Promise<Collected> {
  const events: ModelStreamEvent[] = [];
  let error: unknown;
  try {
    for await (const e of stream) {
      events.push(e);
      onEvent?.(e);
    }
  } catch (err) {
    error = err;
  }
  const join = (type: 'text' | 'reasoning') => events.map((e) => (e.type === type ? e.delta : '')).join('');
  return {
    events,
    error,
    text: join('text'),
    reasoning: join('reasoning'),
    done: events.find((e): e is DoneEvent => e.type === 'done'),
  };
}
