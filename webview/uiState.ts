/**
 * UI-only state: what is expanded, where the interview wizard is, the scroll position and the
 * composer draft. It lives in VS Code's `setState`, so it survives the view being hidden and
 * restored; the host never sees it.
 */
import * as z from 'zod';
import type { VsCodeApi } from './bridge';

const WizardSchema = z.object({
  requestId: z.string(),
  step: z.number().int().nonnegative(),
  choices: z.record(z.string(), z.string()),
  notes: z.record(z.string(), z.string()),
});

const UiStateSchema = z.object({
  expanded: z.record(z.string(), z.boolean()).catch({}),
  wizard: WizardSchema.nullable().catch(null),
  scrollTop: z.number().nonnegative().catch(0),
  follow: z.boolean().catch(true),
  draft: z.string().catch(''),
  /** The page whose snapshot was used (see `claimPage`). */
  page: z.string().catch(''),
});

export type WizardProgress = z.infer<typeof WizardSchema>;
export type UiState = z.infer<typeof UiStateSchema>;

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
    const saved = UiStateSchema.safeParse(api.getState() ?? {});
    this.state = saved.success ? saved.data : defaultUiState();
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
