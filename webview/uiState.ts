/**
 * UI-only state: what is expanded, where the interview wizard is, the scroll position and the
 * composer draft. It lives in VS Code's `setState`, so it survives the view being hidden and
 * restored; the host never sees it.
 */
import type { VsCodeApi } from './bridge';

export interface WizardProgress {
  requestId: string;
  step: number;
  choices: Record<string, string>;
  notes: Record<string, string>;
}

export interface UiState {
  expanded: Record<string, boolean>;
  wizard: WizardProgress | null;
  scrollTop: number;
  follow: boolean;
  draft: string;
  /** The page whose snapshot was used (see `claimPage`). */
  page: string;
}

type Fields = Record<string, unknown>;

const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plain object whose every value passes `ok`, copied; undefined otherwise. */
function recordOf<T>(v: unknown, ok: (x: unknown) => x is T): Record<string, T> | undefined {
  if (!isFields(v)) return undefined;
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!ok(x)) return undefined;
    out[k] = x;
  }
  return out;
}

const isString = (x: unknown): x is string => typeof x === 'string';
const isBoolean = (x: unknown): x is boolean => typeof x === 'boolean';
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function wizardOf(v: unknown): WizardProgress | null {
  if (!isFields(v)) return null;
  const { requestId, step } = v;
  const choices = recordOf(v['choices'], isString);
  const notes = recordOf(v['notes'], isString);
  if (!isString(requestId) || !Number.isSafeInteger(step) || (step as number) < 0 || !choices || !notes) return null;
  return { requestId, step: step as number, choices, notes };
}

/**
 * The UI state VS Code kept for this view (`getState()`), read field by field: a field that is
 * missing or malformed takes its default and the rest are kept, so one bad field never costs the
 * person's draft. Written by hand, not with zod: it runs before the panel's first paint, which
 * does not load the schemas (store.ts). test/webview/uiState.test.ts holds it to the zod schema
 * it replaced, on generated input.
 */
export function readUiState(saved: unknown): UiState {
  const d = defaultUiState();
  const v = saved === undefined || saved === null ? {} : saved;
  if (!isFields(v)) return d;
  const { scrollTop, follow, draft, page } = v;
  return {
    expanded: recordOf(v['expanded'], isBoolean) ?? d.expanded,
    wizard: v['wizard'] === null ? null : wizardOf(v['wizard']),
    scrollTop: isFiniteNumber(scrollTop) && scrollTop >= 0 ? scrollTop : d.scrollTop,
    follow: isBoolean(follow) ? follow : d.follow,
    draft: isString(draft) ? draft : d.draft,
    page: isString(page) ? page : d.page,
  };
}

/** Expanded flags kept at most; the oldest are forgotten first. */
const MAX_EXPANDED = 500;
const SCROLL_SAVE_DELAY_MS = 250;

export function defaultUiState(): UiState {
  return { expanded: {}, wizard: null, scrollTop: 0, follow: true, draft: '', page: '' };
}

export class UiStateStore {
  private state: UiState;
  private readonly listeners = new Set<() => void>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly api: Pick<VsCodeApi, 'getState' | 'setState'>) {
    this.state = readUiState(api.getState());
  }

  get(): UiState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Changes the state, saves it, and re-renders whoever reads it. */
  update(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    this.save();
    for (const l of [...this.listeners]) l();
  }

  isExpanded(key: string, fallback = false): boolean {
    return this.state.expanded[key] ?? fallback;
  }

  setExpanded(key: string, value: boolean): void {
    const expanded = { ...this.state.expanded };
    delete expanded[key];
    expanded[key] = value;
    const keys = Object.keys(expanded);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_EXPANDED))) delete expanded[k];
    this.update({ expanded });
  }

  /**
   * True the first time a page with this id loads: its snapshot is current. VS Code re-creates a
   * hidden view from the same HTML, whose snapshot is old by then; that load gets false and waits
   * for the host's. Saved, no re-render.
   */
  claimPage(page: string): boolean {
    if (page === '' || page === this.state.page) return false;
    this.state = { ...this.state, page };
    this.save();
    return true;
  }

  /** Scroll position changes often and nothing renders from it: saved later, no re-render. */
  rememberScroll(scrollTop: number, follow: boolean): void {
    this.state = { ...this.state, scrollTop: Math.max(0, scrollTop), follow };
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, SCROLL_SAVE_DELAY_MS);
  }

  /** The composer draft: saved, no re-render (the composer holds its own copy while typing). */
  rememberDraft(draft: string): void {
    this.state = { ...this.state, draft };
    this.save();
  }

  private save(): void {
    this.api.setState(this.state);
  }
}
