/**
 * A question asked inline, where the person clicked, before something is thrown away: it scrolls
 * itself into view inside the panel, and the safe choice (keep) is the default: it is the primary
 * button and holds the focus, and Esc picks it too.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Button, focusButton } from '../ui/Button';
import { Icon } from '../ui/Icon';

export interface ConfirmBarProps {
  question: string;
  detail: string;
  keepLabel: string;
  goLabel: string;
  onKeep: () => void;
  onGo: () => void;
  testId?: string;
}

export function ConfirmBar(props: ConfirmBarProps) {
  const box = useRef<HTMLDivElement>(null);
  const keep = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    focusButton(keep.current);
  }, []);
  return (
    <div
      ref={box}
      class="pw-confirm pw-confirm-bar"
      role="alertdialog"
      aria-label={props.question}
      data-testid={props.testId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          props.onKeep();
        }
      }}
    >
      <p>
        <Icon name="warning" /> {props.question}
      </p>
      <p class="pw-hint">{props.detail}</p>
      <div class="pw-actions">
        <Button buttonRef={keep} onClick={props.onKeep} testId={props.testId ? `${props.testId}-keep` : undefined}>
          {props.keepLabel}
        </Button>
        <Button appearance="secondary" onClick={props.onGo} testId={props.testId ? `${props.testId}-go` : undefined}>
          {props.goLabel}
        </Button>
      </div>
    </div>
  );
}
