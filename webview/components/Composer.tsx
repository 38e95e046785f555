/**
 * The message box: tasks, intent phrases ("stay in planning", "implement"), `/plan` and
 * `/plan off`. Enter sends, Shift+Enter adds a line. While a turn runs, mode commands are
 * dropped here with a notice (the host enforces the same rule). `/plan off` while a plan waits
 * for approval would cancel the plan, and a new task after a finished build would replace its
 * report and Revert buttons: each asks first (`atStake`), keeping by default. The draft lives
 * in the UI state as it is typed, so nothing that arrives (a plan, a gate, a snapshot, the view
 * re-created) loses a character of it.
 */
import { useState } from 'preact/hooks';
import { AT_STAKE_WORDS, type AtStake } from '../../src/protocol/atStake';
import { ConfirmBar } from './ConfirmBar';
import type { Lifecycle } from '../../src/protocol';
import { usePanel } from '../context';
import { modeCommandOf } from '../modeCommand';
import { Icon } from '../ui/Icon';
import { pure } from '../pure';

function ComposerView({
  lifecycle,
  disabled,
  stake,
}: {
  lifecycle: Lifecycle;
  disabled: boolean;
  /** What sending could throw away (`atStake`): a waiting plan, or a finished build's Revert. */
  stake?: AtStake | undefined;
}) {
  const { post, ui } = usePanel();
  const [text, setText] = useState(() => ui.get().draft);
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<AtStake | null>(null);
  const planWaiting = stake === 'plan';

  const change = (value: string) => {
    setText(value);
    ui.rememberDraft(value);
  };

  const send = (confirmed = false) => {
    const value = text.trim();
    if (disabled || value === '') return;
    const command = modeCommandOf(value);
    if (command === 'plan_off' && planWaiting && !lifecycle.busy && !confirmed) {
      setAsking('plan');
      return;
    }
    // After a finished build, a task starts a new session in the panel's place.
    if (command === undefined && stake === 'build' && !lifecycle.busy && !confirmed) {
      setAsking('build');
      return;
    }
    setAsking(null);
    if (command && lifecycle.busy) {
      setNotice(
        `“${value}” was not sent: mode switches are locked while Planwise is working. Try again when the turn ends.`,
      );
      change('');
      return;
    }
    setNotice(null);
    post({ type: 'submit', text: value });
    change('');
  };

  return (
    <form
      class="pw-composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {asking === 'plan' && planWaiting ? (
        <ConfirmBar
          testId="plan-off-confirm"
          question="Leave planning and discard the plan?"
          detail={`/plan off cancels ${AT_STAKE_WORDS.plan.what}.`}
          keepLabel={AT_STAKE_WORDS.plan.keep}
          goLabel="Discard the plan"
          onKeep={() => setAsking(null)}
          onGo={() => send(true)}
        />
      ) : null}
      {asking === 'build' && stake === 'build' ? (
        <ConfirmBar
          testId="new-task-confirm"
          question="Start a new task?"
          detail={`A new task replaces ${AT_STAKE_WORDS.build.what} in the panel. The build's files stay as they are; Resume Session brings this session back.`}
          keepLabel={AT_STAKE_WORDS.build.keep}
          goLabel="Start the new task"
          onKeep={() => setAsking(null)}
          onGo={() => send(true)}
        />
      ) : null}
      {notice ? (
        <div class="pw-composer-notice" role="alert">
          <Icon name="lock" /> {notice}
        </div>
      ) : null}
      <div class="pw-composer-row">
        <textarea
          class="pw-input"
          aria-label="Message Planwise"
          placeholder={disabled ? 'Starting the build…' : 'Describe a task, or type /plan or /plan off'}
          rows={2}
          value={text}
          disabled={disabled}
          onInput={(e) => change((e.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="submit" class="pw-send" aria-label="Send" title="Send (Enter)" disabled={disabled}>
          <Icon name="send" />
        </button>
      </div>
    </form>
  );
}

export const Composer = pure(ComposerView);
