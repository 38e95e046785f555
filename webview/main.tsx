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
import { PanelStore } from './store';
import { UiStateStore } from './uiState';
import { registerToolkit } from './ui/toolkit';

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const post = createPost(api);
const store = new PanelStore({ post });
const services = { post, ui: new UiStateStore(api), renderCache: new RenderCache() };

registerToolkit();
window.addEventListener('message', (event: MessageEvent) => store.receive(event.data));
render(<App store={store} services={services} />, document.getElementById('root') ?? document.body);
// The first frame after the host's first snapshot is rendered: the panel's first meaningful paint.
markFirstPaint(
  (listener) => store.subscribe(listener),
  () => !store.awaitingSnapshot,
);
store.start();
