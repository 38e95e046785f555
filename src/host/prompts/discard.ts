/**
 * A palette command that would throw away a plan waiting for approval, or a finished build's report
 * with its Revert buttons, asks first in a modal. The safe choice comes first, so it is the dialog's
 * default button; Esc and Cancel keep as well. A flow over one injected UI call, so host tests run
 * it without VS Code.
 */
import { AT_STAKE_WORDS, type AtStake } from '../../protocol/atStake';

/** What the command is about to do: start a new plan, cancel the waiting one, or resume another session. */
export type DiscardingAction = 'start' | 'cancel' | 'resume';

export interface DiscardUi {
  /** A modal with `buttons` in order (the first is the default); undefined for Esc or Cancel. */
  ask(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined>;
}

export interface DiscardQuestion {
  readonly message: string;
  readonly detail: string;
  readonly keep: string;
  readonly go: string;
}

export function discardQuestion(action: DiscardingAction, stake: AtStake): DiscardQuestion {
  const words = AT_STAKE_WORDS[stake];
  if (action === 'cancel') {
    return {
      message: 'Cancel the plan waiting for your approval?',
      detail: 'Nothing has been built. The plan file stays on disk, but this session stops planning.',
      keep: words.keep,
      go: 'Cancel the plan',
    };
  }
  if (action === 'resume') {
    return {
      message: stake === 'plan' ? 'Resume another session and discard the waiting plan?' : 'Resume another session?',
      detail:
        stake === 'plan'
          ? `The resumed session replaces ${words.what}; nothing of it has been built.`
          : `The resumed session replaces ${words.what} in the panel. The build's files stay as they are; Resume Session brings this session back.`,
      keep: words.keep,
      go: stake === 'plan' ? 'Discard and resume' : 'Resume the other session',
    };
  }
  return {
    message: stake === 'plan' ? 'Start a new plan and discard the waiting one?' : 'Start a new plan?',
    detail:
      stake === 'plan'
        ? `A new plan replaces ${words.what}; nothing of it has been built.`
        : `A new plan replaces ${words.what} in the panel.`,
    keep: words.keep,
    go: stake === 'plan' ? 'Discard and start' : 'Start a new plan',
  };
}

/** True when the command may go ahead: nothing at stake, or the person chose to discard it. */
export async function confirmDiscard(
  ui: DiscardUi,
  action: DiscardingAction,
  stake: AtStake | undefined,
): Promise<boolean> {
  if (stake === undefined || (action === 'cancel' && stake !== 'plan')) return true;
  const q = discardQuestion(action, stake);
  return (await ui.ask(q.message, q.detail, [q.keep, q.go])) === q.go;
}
