/**
 * The message box: tasks, intent phrases ("stay in planning", "implement"), `/plan` and
 * `/plan off`. Enter sends, Shift+Enter adds a line. While a turn runs, mode commands are
 * dropped here with a notice (the host enforces the same rule).
 */
import { useState } from 'preact/hooks';
import type { Lifecycle } from '../../src/protocol';
import { usePanel } from '../context';
import { modeCommandOf } from '../modeCommand';
import { Icon } from '../ui/Icon';
import { pure } from '../pure';

function ComposerView({ lifecycle, disabled }: { lifecycle: Lifecycle; disabled: boolean }) {
  const { post, ui } = usePanel();
  const [text, setText] = useState(() => ui.get().draft);
  const [notice, setNotice] = useState<string | null>(null);

  const change = (value: string) => {
    setText(value);
    ui.rememberDraft(value);
  };

  const send = () => {
    const value = text.trim();
    if (disabled || value === '') return;
    const command = modeCommandOf(value);
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
