/**
 * One Tab stop per region, arrows inside it. The tracker is a tree: its step rows are the items
 * (Up/Down move between rows, Right goes into a row's controls — expand, file chips, Run, Mark
 * checked — and Left comes back). The transcript is one stop on its scroller: arrows scroll it as
 * before, Right (or Down from a control) reaches its links and buttons, Left or Escape returns.
 * Everything inside stays clickable; it only leaves the Tab order, so the gate is a few presses away.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, vscode-button, [tabindex]';

export interface RovingOptions {
  /** Rows that are tree items (the tracker); absent: the root itself is the one stop (the transcript). */
  readonly rows?: string;
  /** For a row, the element holding its controls (default: the row). */
  readonly controlsOf?: (row: HTMLElement) => HTMLElement;
}

const visible = (el: HTMLElement) => el.getClientRects().length > 0;

export function installRoving(root: HTMLElement, opts: RovingOptions = {}): () => void {
  let current: HTMLElement | undefined;
  const rows = () => (opts.rows ? [...root.querySelectorAll<HTMLElement>(opts.rows)].filter(visible) : []);
  const controlsIn = (scope: HTMLElement) =>
    [...scope.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) =>
        el !== scope &&
        !el.matches(opts.rows ?? ':not(*)') &&
        // A step's own controls, not those of the steps nested in it.
        (scope.tagName !== 'LI' || el.closest('li') === scope) &&
        visible(el) &&
        !el.hasAttribute('disabled'),
    );
  const rowOf = (el: Element | null) => (opts.rows ? (el?.closest<HTMLElement>(opts.rows) ?? undefined) : undefined);

  const apply = () => {
    for (const el of root.querySelectorAll<HTMLElement>(FOCUSABLE)) {
      if (el === root || (opts.rows && el.matches(opts.rows))) continue;
      if (el.tabIndex !== -1) el.tabIndex = -1;
      // The toolkit's <vscode-button> delegates focus to a button in its shadow root.
      const inner = el.shadowRoot?.querySelector<HTMLElement>('button');
      if (inner && inner.tabIndex !== -1) inner.tabIndex = -1;
    }
    if (!opts.rows) return;
    const all = rows();
    if (!current || !root.contains(current)) current = all[0];
    for (const r of root.querySelectorAll<HTMLElement>(opts.rows)) {
      r.setAttribute('role', 'treeitem');
      r.tabIndex = r === current ? 0 : -1;
    }
  };
  const focus = (el: HTMLElement | undefined) => {
    if (!el) return;
    if (opts.rows && el.matches(opts.rows)) {
      current = el;
      apply();
    }
    el.focus({ preventScroll: false });
  };

  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (opts.rows) {
      const row = rowOf(target);
      if (!row) return;
      const all = rows();
      const i = all.indexOf(row);
      const controls = controlsIn(opts.controlsOf?.(row) ?? row);
      const onRow = target === row;
      const c = controls.indexOf(target);
      let next: HTMLElement | undefined;
      if (e.key === 'ArrowDown') next = all[Math.min(all.length - 1, i + 1)];
      else if (e.key === 'ArrowUp') next = all[Math.max(0, i - 1)];
      else if (e.key === 'Home') next = all[0];
      else if (e.key === 'End') next = all.at(-1);
      else if (e.key === 'ArrowRight') next = onRow ? controls[0] : (controls[c + 1] ?? target);
      else if (e.key === 'ArrowLeft' || e.key === 'Escape') next = onRow ? undefined : c > 0 ? controls[c - 1] : row;
      else if (onRow && (e.key === 'Enter' || e.key === ' ')) {
        // Enter on a step opens or closes it (its expand button).
        e.preventDefault();
        row.querySelector<HTMLElement>('button')?.click();
        return;
      }
      if (next) {
        e.preventDefault();
        focus(next);
      }
      return;
    }
    const controls = controlsIn(root);
    const c = controls.indexOf(target);
    let next: HTMLElement | undefined;
    if (target === root && e.key === 'ArrowRight') next = firstInView(root, controls);
    else if (c >= 0 && (e.key === 'ArrowDown' || e.key === 'ArrowRight')) next = controls[c + 1];
    else if (c >= 0 && e.key === 'ArrowUp') next = controls[c - 1] ?? root;
    else if (c >= 0 && (e.key === 'ArrowLeft' || e.key === 'Escape')) next = root;
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  apply();
  const observer = new MutationObserver(apply);
  observer.observe(root, { childList: true, subtree: true });
  root.addEventListener('keydown', onKey);
  return () => {
    observer.disconnect();
    root.removeEventListener('keydown', onKey);
  };
}

function firstInView(root: HTMLElement, controls: HTMLElement[]): HTMLElement | undefined {
  const box = root.getBoundingClientRect();
  return controls.find((el) => el.getBoundingClientRect().bottom > box.top) ?? controls[0];
}
