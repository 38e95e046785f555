/** A disclosure: a header button that shows or hides its body. Open/closed is UI state. */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { usePanel, useUiState } from '../context';
import { Icon } from '../ui/Icon';

export interface CollapsibleProps {
  /** Key in the UI state's expanded map. */
  stateKey: string;
  summary: ComponentChildren;
  children: () => ComponentChildren;
  defaultOpen?: boolean;
  class?: string;
}

export function Collapsible({ stateKey, summary, children, defaultOpen = false, class: cls }: CollapsibleProps) {
  const { ui } = usePanel();
  const uiState = useUiState();
  const open = uiState.expanded[stateKey] ?? defaultOpen;
  const bodyId = useId();
  return (
    <div class={`pw-collapsible${cls ? ` ${cls}` : ''}`}>
      <button
        type="button"
        class="pw-disclosure"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => ui.setExpanded(stateKey, !open)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        {summary}
      </button>
      {open ? (
        <div id={bodyId} class="pw-collapsible-body">
          {children()}
        </div>
      ) : null}
    </div>
  );
}
