/** A thin wrapper of the toolkit's `<vscode-button>`; the rest of the panel uses this. */
import type { ComponentChildren, Ref } from 'preact';
import './elements';

export interface ButtonProps {
  children: ComponentChildren;
  onClick: () => void;
  appearance?: 'primary' | 'secondary' | 'icon';
  disabled?: boolean;
  title?: string;
  label?: string;
  class?: string;
  buttonRef?: Ref<HTMLElement>;
  testId?: string;
}

export function Button(props: ButtonProps) {
  const disabled = props.disabled === true;
  return (
    <vscode-button
      ref={props.buttonRef}
      appearance={props.appearance ?? 'primary'}
      disabled={disabled}
      aria-disabled={disabled ? 'true' : undefined}
      title={props.title}
      aria-label={props.label}
      class={props.class}
      data-testid={props.testId}
      onClick={(e: MouseEvent) => {
        // The element still receives clicks on its padding while disabled.
        if (disabled) {
          e.preventDefault();
          e.stopPropagation();
          return;
        }
        props.onClick();
      }}
    >
      {props.children}
    </vscode-button>
  );
}

/**
 * Focuses a toolkit button. The element updates its inner button on the next frame, so a
 * button that was just enabled may refuse focus at first: retry for a few frames.
 */
export function focusButton(el: HTMLElement | null, attempts = 4): void {
  if (!el) return;
  el.focus();
  if (el.ownerDocument.activeElement === el || attempts <= 1) return;
  requestAnimationFrame(() => focusButton(el, attempts - 1));
}
