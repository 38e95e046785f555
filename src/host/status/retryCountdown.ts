/**
 * The countdown while a model request waits to be retried (`Retry-After`, backoff): in the status
 * bar ("Planwise: retrying in 1:58", clicking it stops the run, which cancels the wait) and in the
 * panel, by patching the text of the notice the `model.retrying` event became, once a second.
 * When the wait ends the notice keeps one line saying the request was sent again.
 */
import * as vscode from 'vscode';
import type { RetryEvent } from '../adapters/observedModel';
import { COMMANDS } from '../ids';
import { countdownText, noticeCountdownText, noticeRetriedText } from './retryFormat';

export interface RetryCountdownOptions {
  /** Replaces the text of a panel notice. */
  readonly patchNotice?: (id: string, text: string) => void;
  readonly now?: () => number;
}

export class RetryCountdown implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planwise.retry', vscode.StatusBarAlignment.Left, 49);
  private timer: ReturnType<typeof setInterval> | undefined;
  private current: { event: RetryEvent; until: number; notice?: string } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: RetryCountdownOptions = {}) {
    this.now = options.now ?? Date.now;
    this.item.name = 'Planwise Retry';
    this.item.command = COMMANDS.stop;
  }

  show(event: RetryEvent): void {
    this.finish();
    this.current = { event, until: this.now() + event.waitMs };
    this.paint();
    this.item.show();
    this.timer = setInterval(() => this.paint(), 1000);
  }

  /** The panel notice of the wait being counted down (from the `model.retrying` event's seq). */
  attachNotice(id: string): void {
    if (!this.current) return;
    this.current.notice = id;
    this.paint();
  }

  hide(): void {
    this.finish();
    this.item.hide();
  }

  dispose(): void {
    this.finish();
    this.item.dispose();
  }

  private paint(): void {
    const c = this.current;
    if (!c) return;
    const left = c.until - this.now();
    if (left <= 0) return this.hide();
    const { attempt, maxAttempts, reason } = c.event;
    const view = countdownText(left, attempt, maxAttempts, reason);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.accessibilityInformation = { label: view.tooltip, role: 'button' };
    if (c.notice) this.options.patchNotice?.(c.notice, noticeCountdownText(left, attempt, maxAttempts, reason));
  }

  /** Stops the clock; the notice says the request went out again. */
  private finish(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    const c = this.current;
    this.current = undefined;
    if (c?.notice) {
      this.options.patchNotice?.(
        c.notice,
        noticeRetriedText(c.event.waitMs, c.event.attempt, c.event.maxAttempts, c.event.reason),
      );
    }
  }
}
