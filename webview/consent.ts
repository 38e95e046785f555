/**
 * Whose act put the focus where it is. Focus that arrives while the person presses Tab, an arrow,
 * Home or End, or presses a pointer, is theirs; any other focus (a component calling `focus()`)
 * is the panel's. The gate's choices answer Enter and Space only when the person moved the focus
 * to them, so a key typed for a text box can never approve a plan that arrived meanwhile.
 */

const NAVIGATION_KEYS = new Set(['Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End']);

/** The chord that moves the focus to the open gate: Ctrl+Alt+Shift+G (Cmd on a Mac also works). */
export const GATE_KEY_LABEL = 'Ctrl+Alt+Shift+G';

export function isGateKey(e: Pick<KeyboardEvent, 'code' | 'key' | 'altKey' | 'shiftKey' | 'ctrlKey' | 'metaKey'>) {
  return (e.ctrlKey || e.metaKey) && e.altKey && e.shiftKey && (e.code === 'KeyG' || e.key.toLowerCase() === 'g');
}

/** A key that types a character: a single-character key with no Ctrl, Alt or Cmd held. */
export function isPrintable(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey'>): boolean {
  return e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey;
}

export class FocusIntent {
  private pressed = false;
  private restoring = false;
  private readonly person = new WeakSet<Element>();

  /** Starts watching `doc`; returns the function that stops. */
  install(doc: Document): () => void {
    const moving = () => {
      this.pressed = true;
      setTimeout(() => (this.pressed = false), 0);
    };
    const onKey = (e: KeyboardEvent) => {
      if (NAVIGATION_KEYS.has(e.key)) moving();
    };
    const onFocus = (e: FocusEvent) => {
      const el = e.target as Element;
      if (this.pressed || (this.restoring && this.person.has(el))) this.person.add(el);
      else this.person.delete(el);
    };
    doc.addEventListener('keydown', onKey, true);
    doc.addEventListener('pointerdown', moving, true);
    doc.addEventListener('focusin', onFocus, true);
    return () => {
      doc.removeEventListener('keydown', onKey, true);
      doc.removeEventListener('pointerdown', moving, true);
      doc.removeEventListener('focusin', onFocus, true);
    };
  }

  /** A key or pointer press of the person's is moving the focus right now. */
  get moving(): boolean {
    return this.pressed;
  }

  /** True when the person's own act put the focus on `el`. */
  movedByPerson(el: Element): boolean {
    return this.person.has(el);
  }

  /** Gives the focus back to where the person had put it (the view regaining focus): still theirs. */
  restore(el: HTMLElement): void {
    this.restoring = true;
    try {
      el.focus({ preventScroll: true });
    } finally {
      this.restoring = false;
    }
  }

  /** Forgets every element's mark: a new plan arrived, so no earlier focus counts for it. */
  forget(el: Element): void {
    this.person.delete(el);
  }
}

/**
 * A question that just arrived may take the focus only when the person is not in the middle of
 * something: the focus is on the page itself, already in the prompt area, or in an empty text box.
 * Never out of a box with text in it, nor out of the transcript or the header they are using. (The
 * gate never takes the focus at all.)
 */
export function mayTakeFocus(doc: Document): boolean {
  const el = doc.activeElement;
  if (!el || el === doc.body || el.closest('.pw-dock') !== null) return true;
  return (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && el.value === '';
}
