import type { ThreadEvent, ThreadEventBody } from './types';

export type EventListener = (event: ThreadEvent) => void;

/**
 * Assigns sequence numbers and fans events out to listeners (UI, CLI printer, archive).
 * A throwing listener never breaks the others or the engine.
 */
export class EventBus {
  private seq = 0;
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly now: () => number,
    startSeq = 0,
  ) {
    this.seq = startSeq;
  }

  get lastSeq(): number {
    return this.seq;
  }

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(body: ThreadEventBody): ThreadEvent {
    const event = { ...body, seq: ++this.seq, at: this.now() } as ThreadEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A UI listener failing must not stop the engine or starve other listeners.
      }
    }
    return event;
  }
}
