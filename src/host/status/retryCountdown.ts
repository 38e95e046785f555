/**
 * The status-bar countdown while a model request waits to be retried (`Retry-After`, backoff):
 * "Planwise: retrying in 1:58", once a second; clicking it stops the run (which cancels the wait).
 */
import * as vscode from 'vscode';
import type { RetryEvent } from '../adapters/observedModel';
import { COMMANDS } from '../ids';
import { countdownText } from './retryFormat';

export class RetryCountdown implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('planwise.retry', vscode.StatusBarAlignment.Left, 49);
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.item.name = 'Planwise Retry';
    this.item.command = COMMANDS.stop;
  }

  show(event: RetryEvent): void {
    const until = this.now() + event.waitMs;
    const paint = () => {
      const left = until - this.now();
      if (left <= 0) return this.hide();
      const view = countdownText(left, event.attempt, event.maxAttempts, event.reason);
      this.item.text = view.text;
      this.item.tooltip = view.tooltip;
      this.item.accessibilityInformation = { label: view.tooltip, role: 'button' };
    };
    this.stopTimer();
    paint();
    this.item.show();
    this.timer = setInterval(paint, 1000);
  }

  hide(): void {
    this.stopTimer();
    this.item.hide();
  }

  dispose(): void {
    this.stopTimer();
    this.item.dispose();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
