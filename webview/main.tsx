/**
 * The webview entry: acquires VS Code's API once, wires the store to the window's message
 * events, and renders the panel. esbuild bundles it as an ES module of its own
 * (scripts/webviewBuild.mjs) that holds what the first paint needs; three chunks, bundles of their
 * own too, load right after that paint: the UI toolkit that defines the buttons
 * (ui/toolkitChunk.ts), the protocol's schemas (zod) that check host messages (check.ts), and the
 * markdown renderer (markdownChunk.ts). A panel that must wait for the host's snapshot loads them
 * at once.
 */
import { render } from 'preact';
import { App } from './App';
import { createPost, type VsCodeApi } from './bridge';
import { afterNextPaint, markFirstPaint } from './firstPaint';
import { LazyMarkdown, RenderCache } from './markdown';
import { pageSnapshot } from './pageSnapshot';
import { PanelStore, type HostMessageCheck } from './store';
import { UiStateStore } from './uiState';
import type * as CheckChunk from './check';
import type * as ToolkitChunk from './ui/toolkitChunk';
import type { MarkdownModule } from './markdown';

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * A chunk's URL: beside the entry, in the folder the page names (`data-chunks`). The entry may be
 * written into the page itself, where relative imports would resolve against the page's address.
 */
const chunk = (file: string) =>
  new URL(file, new URL(document.body.dataset['chunks'] ?? import.meta.url, document.baseURI)).href;

let loadChunks!: () => void;
const chunksWanted = new Promise<void>((resolve) => (loadChunks = resolve));
const check: Promise<HostMessageCheck> = chunksWanted
  .then(() => import(chunk('check.js')) as Promise<typeof CheckChunk>)
  .then((m) => m.parseHostMessage);
// The toolkit first: until it loads, the buttons are drawn by CSS and take no focus.
void chunksWanted
  .then(() => import(chunk('toolkit.js')) as Promise<typeof ToolkitChunk>)
  .then(
    (m) => m.registerToolkit(),
    (err: unknown) =>
      console.warn(`[planwise] The UI toolkit could not be loaded; buttons answer clicks only: ${String(err)}`),
  );
const markdown = new LazyMarkdown(() => import(chunk('markdown.js')) as Promise<MarkdownModule>);
void chunksWanted.then(() => markdown.load());

const api = acquireVsCodeApi();
const post = createPost(api);
const store = new PanelStore({ post, check });
const ui = new UiStateStore(api);
const services = { post, ui, renderCache: new RenderCache(), markdown };

window.addEventListener('message', (event: MessageEvent) => store.receive(event.data));
// The page's snapshot, when it has a current one, is in the store before the first render.
store.start(pageSnapshot(document, ui));
render(<App store={store} services={services} />, document.getElementById('root') ?? document.body);
// Without a snapshot nothing is shown until the host's arrives, and it needs the check.
if (store.awaitingSnapshot) loadChunks();
else afterNextPaint(loadChunks);
// The first frame after the host's first snapshot is rendered: the panel's first meaningful paint.
markFirstPaint(
  (listener) => store.subscribe(listener),
  () => !store.awaitingSnapshot,
);
