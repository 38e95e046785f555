/** Mounts the real panel in jsdom against an in-memory host (the protocol's ViewModel). */
import './setupDom';
import { act, render } from '@testing-library/preact';
import {
  emptyViewState,
  parseHostMessage,
  ViewModel,
  type DeltaOp,
  type ViewState,
  type WebviewMessage,
} from '../../src/protocol';
import { App } from '../../webview/App';
import { createPost, type VsCodeApi } from '../../webview/bridge';
import { LazyMarkdown, RenderCache } from '../../webview/markdown';
import * as markdownChunk from '../../webview/markdownChunk';
import { PanelStore } from '../../webview/store';
import { UiStateStore } from '../../webview/uiState';
import { registerToolkit } from '../../webview/ui/toolkitChunk';

registerToolkit();

export interface MountOptions {
  state?: Partial<ViewState>;
  savedUi?: unknown;
}

export function mountPanel(options: MountOptions = {}) {
  const posted: WebviewMessage[] = [];
  const warnings: string[] = [];
  let savedUi = options.savedUi;
  const api: VsCodeApi = {
    postMessage: (m) => posted.push(m as WebviewMessage),
    getState: () => savedUi,
    setState: (s) => {
      savedUi = s;
    },
  };
  const post = createPost(api);
  const queued: (() => void)[] = [];
  const store = new PanelStore({
    post,
    check: parseHostMessage,
    schedule: (f) => queued.push(f),
    warn: (m) => warnings.push(m),
  });
  const services = {
    post,
    ui: new UiStateStore(api),
    renderCache: new RenderCache(),
    markdown: new LazyMarkdown(markdownChunk),
  };
  const host = new ViewModel({ ...emptyViewState(), flags: { hasApiKey: true, trusted: true }, ...options.state });

  const flushFrames = () => {
    while (queued.length > 0) queued.shift()!();
  };
  /** Delivers a raw message as the host would, then lets the next frame run. */
  const send = (raw: unknown) =>
    act(() => {
      store.receive(raw);
      flushFrames();
    });

  const utils = render(<App store={store} services={services} />);
  store.start();
  send(JSON.parse(JSON.stringify(host.snapshot())));

  return {
    ...utils,
    posted,
    warnings,
    store,
    host,
    send,
    /** Runs the pending animation frame (applies queued deltas). */
    frame: () => act(flushFrames),
    /** Applies ops on the host side and delivers the resulting delta. */
    update: (ops: DeltaOp[]) => send(JSON.parse(JSON.stringify(host.update(ops)))),
    savedUi: () => savedUi,
    /** Messages of one type the panel posted. */
    sent: <T extends WebviewMessage['type']>(type: T) =>
      posted.filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type),
  };
}
