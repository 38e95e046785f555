import { Emitter } from '../emitter';
import type { ThreadEvent, ThreadEventBody } from './types';

export type EventListener = (event: ThreadEvent) => void;

/**
 * Assigns sequence numbers and fans events out to listeners (UI, CLI printer, archive).
 * A throwing listener never breaks the others or the engine.
 */
export class EventBus {
  private seq = 0;
  private readonly listeners = new Emitter<ThreadEvent>();

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
    const subscription = this.listeners.on(listener);
    return () => subscription.dispose();
  }

  emit(body: ThreadEventBody): ThreadEvent {
    const event = { ...body, seq: ++this.seq, at: this.now() } as ThreadEvent;
    this.listeners.fire(event);
    return event;
  }
}
