/** The panel's one polite live region: state changes, said once, in words (see `announce.ts`). */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ViewState } from '../../src/protocol';
import { announcement } from '../announce';

export function Announcer({ state }: { state: ViewState }) {
  const prev = useRef(state);
  const [text, setText] = useState('');
  useEffect(() => {
    const said = announcement(prev.current, state);
    prev.current = state;
    if (said) setText(said);
  }, [state]);
  return (
    <div class="pw-sr-only" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </div>
  );
}
