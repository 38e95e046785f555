/**
 * The webview entry: acquires VS Code's API once, wires the store to the window's message
 * events, and renders the panel. esbuild bundles this file to media/webview.js.
 */
import './zodConfig';
import { render } from 'preact';
import { App } from './App';
import { createPost, type VsCodeApi } from './bridge';
import { markFirstPaint } from './firstPaint';
import { RenderCache } from './markdown';
import { pageSnapshot } from './pageSnapshot';
import { PanelStore } from './store';
import { UiStateStore } from './uiState';
import { registerToolkit } from './ui/toolkit';

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const post = createPost(api);
const store = new PanelStore({ post });
const ui = new UiStateStore(api);
const services = { post, ui, renderCache: new RenderCache() };

registerToolkit();
window.addEventListener('message', (event: MessageEvent) => store.receive(event.data));
// The page's snapshot, when it has a current one, is in the store before the first render.
store.start(pageSnapshot(document, ui));
render(<App store={store} services={services} />, document.getElementById('root') ?? document.body);
// The first frame after the host's first snapshot is rendered: the panel's first meaningful paint.
markFirstPaint(
  (listener) => store.subscribe(listener),
  () => !store.awaitingSnapshot,
);
