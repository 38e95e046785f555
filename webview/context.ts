/**
 * What every component may reach: the post function, the UI-state store, the render cache and
 * the markdown chunk.
 * Created once in main.tsx (or by a test) and provided through context; nothing is global.
 */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Post } from './bridge';
import type { FocusIntent } from './consent';
import type { LazyMarkdown, RenderCache } from './markdown';
import type { PanelStore } from './store';
import type { UiState, UiStateStore } from './uiState';
import type { ViewState } from '../src/protocol';

export interface PanelServices {
  post: Post;
  ui: UiStateStore;
  renderCache: RenderCache;
  /** The markdown chunk, loaded after the first paint. */
  markdown: LazyMarkdown;
  /** Whose act put the focus where it is (the panel makes one when none is given). */
  intent?: FocusIntent;
}

export const PanelContext = createContext<PanelServices | null>(null);

export function usePanel(): PanelServices {
  const services = useContext(PanelContext);
  if (!services) throw new Error('Planwise panel component rendered outside <PanelContext.Provider>.');
  return services;
}

/** The UI-only state; re-renders when it changes. */
export function useUiState(): UiState {
  const { ui } = usePanel();
  const [state, setState] = useState(ui.get());
  useEffect(() => {
    setState(ui.get());
    return ui.subscribe(() => setState(ui.get()));
  }, [ui]);
  return state;
}

/** The host's view state; re-renders once per applied batch of deltas. */
export function useViewState(store: PanelStore): ViewState {
  const [state, setState] = useState(store.getState());
  useEffect(() => {
    setState(store.getState());
    return store.subscribe(() => setState(store.getState()));
  }, [store]);
  return state;
}
