/**
 * The host's side of the panel: the authoritative view state (`ViewModel`), the sequence count,
 * and delivery. Ops are batched per frame (streamed tokens to one item merge into one append),
 * posted as seq-numbered deltas while the webview is ready and visible, and, while it is hidden or
 * not yet loaded, folded into the state so the next snapshot carries them (VS Code drops messages
 * posted to a hidden view).
 */
import { Emitter } from '../../core/api/basics';
import type { DeltaOp, HostMessage, ViewState } from '../../protocol';
import { coalesceOps } from '../../protocol/apply';
import { emptyViewState } from '../../protocol/emptyState';
import { ViewModel } from '../../protocol/viewModel';

export type PostFn = (message: HostMessage) => PromiseLike<boolean>;

export interface HubOptions {
  /** Runs `fn` once soon (default: after 16 ms, about one frame). Tests pass a manual scheduler. */
  readonly schedule?: (fn: () => void) => void;
  readonly log?: (line: string) => void;
  /** Cleans every message before it is posted (the host removes secrets here). */
  readonly sanitize?: (message: HostMessage) => HostMessage;
}

export class PanelHub {
  private readonly model: ViewModel;
  private post: PostFn | undefined;
  private visible = false;
  /** The webview said `ready` since it was (re)created. */
  private ready = false;
  /** State changed since the webview last got it. */
  private stale = true;
  private queue: DeltaOp[] = [];
  private flushScheduled = false;
  private readonly schedule: (fn: () => void) => void;
  private readonly listeners = new Emitter<ViewState>();

  constructor(
    initial: ViewState = emptyViewState(),
    private readonly options: HubOptions = {},
  ) {
    this.model = new ViewModel(initial);
    this.schedule = options.schedule ?? ((fn) => void setTimeout(fn, 16));
  }

  get state(): ViewState {
    this.flush();
    return this.model.state;
  }

  get isVisible(): boolean {
    return this.post !== undefined && this.visible;
  }

  /** A webview view was resolved (or re-created). It is not ready until it says so. */
  attach(post: PostFn, visible: boolean): void {
    this.post = post;
    this.visible = visible;
    this.ready = false;
    this.stale = true;
  }

  detach(): void {
    this.post = undefined;
    this.visible = false;
    this.ready = false;
  }

  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (visible && this.ready && this.stale) this.sendSnapshot();
  }

  /**
   * The snapshot written into a page the view is about to load (see `renderPanelHtml`), cleaned
   * like every posted message. The page's `ready` then names its `seq`, and `answerReady` sends
   * nothing more while nothing has changed since.
   */
  pageSnapshot(): HostMessage {
    this.flush();
    return this.clean(this.model.snapshot());
  }

  /**
   * The webview (re)loaded. `heldSeq` is the `seq` of the state it already shows (its page's
   * snapshot); when that is still the latest, it is ready with nothing to send, otherwise it gets
   * everything in one snapshot.
   */
  answerReady(heldSeq: number | undefined): void {
    this.flush();
    if (this.post && heldSeq !== undefined && heldSeq === this.model.lastSeq) {
      this.ready = true;
      this.stale = false;
      return;
    }
    this.sendSnapshot();
  }

  /** `ready` from a page without a current state, and `resync`: everything in one snapshot. */
  sendSnapshot(): void {
    this.flush();
    this.ready = true;
    if (!this.post) return;
    const message = this.model.snapshot();
    this.stale = false;
    this.deliver(message);
  }

  update(ops: readonly DeltaOp[]): void {
    if (ops.length === 0) return;
    this.queue.push(...ops);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Replaces the whole state (a new session) and sends it. */
  reset(state: ViewState): void {
    this.queue = [];
    this.model.reset(state);
    this.stale = true;
    this.notify();
    if (this.ready && this.isVisible) this.sendSnapshot();
  }

  /** Applies queued ops now (also called by the scheduler). */
  flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0) return;
    const ops = coalesceOps(this.queue);
    this.queue = [];
    const delta = this.model.update(ops);
    this.notify();
    if (!delta) return;
    if (!this.ready || !this.isVisible) this.stale = true;
    else if (this.stale) this.sendSnapshot();
    else this.deliver(delta);
  }

  onDidChangeState(listener: (state: ViewState) => void): { dispose(): void } {
    return this.listeners.on(listener);
  }

  private notify(): void {
    this.listeners.fire(this.model.state);
  }

  /** What leaves the host: every message, posted or written into the page, goes through here. */
  private clean(message: HostMessage): HostMessage {
    return this.options.sanitize ? this.options.sanitize(message) : message;
  }

  private deliver(message: HostMessage): void {
    const post = this.post;
    if (!post) {
      this.stale = true;
      return;
    }
    post(this.clean(message)).then(
      (delivered) => {
        if (!delivered) this.stale = true;
      },
      (err: unknown) => {
        this.stale = true;
        this.options.log?.(`panel message ${message.type} #${message.seq} not delivered: ${String(err)}`);
      },
    );
  }
}
