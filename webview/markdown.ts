/**
 * Model text in the panel: plain text with file references linked, the cache of rendered
 * fragments, and `LazyMarkdown`, which holds the markdown chunk (markdownChunk.ts: marked,
 * DOMPurify and the streaming renderer) once it has loaded. The chunk is not part of the panel's
 * first paint; until it is there, `RichText` shows markdown as plain text and renders it again
 * when the chunk arrives. Nothing here parses markdown or HTML.
 */
import type * as MarkdownChunk from './markdownChunk';
import { linkifyFileRefs } from './fileRefs';

/** What the markdown chunk offers. */
export type MarkdownModule = typeof MarkdownChunk;

/** The markdown chunk: already loaded (tests), or loaded on the first `load()`. */
export class LazyMarkdown {
  private loaded: MarkdownModule | undefined;
  private loading: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly source: MarkdownModule | (() => Promise<MarkdownModule>),
    private readonly warn: (message: string) => void = (m) => console.warn(`[planwise] ${m}`),
  ) {
    if (typeof source !== 'function') this.loaded = source;
  }

  /** The chunk, once loaded. */
  get module(): MarkdownModule | undefined {
    return this.loaded;
  }

  /** Starts loading the chunk (once); resolves when it is there or failed (said once, text stays plain). */
  load(): Promise<void> {
    if (this.loaded || typeof this.source !== 'function') return Promise.resolve();
    this.loading ??= this.source().then(
      (m) => {
        this.loaded = m;
        for (const l of [...this.listeners]) l();
      },
      (err: unknown) => {
        this.warn(`Markdown could not be loaded; model text is shown as plain text: ${String(err)}`);
      },
    );
    return this.loading;
  }

  /** Calls `listener` when the chunk has loaded. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Plain text with file references linked (user messages, tool output). */
export function renderPlainText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(text);
  linkifyFileRefs(fragment);
  return fragment;
}

/** A small cache of rendered fragments for completed items, so scrolling back is cheap. */
export class RenderCache {
  private readonly entries = new Map<string, DocumentFragment>();
  constructor(private readonly capacity = 300) {}

  /** A fresh copy of the rendering of `key`, computing it with `render` on a miss. */
  get(key: string, render: () => DocumentFragment): DocumentFragment {
    let hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
    } else {
      hit = render();
      if (this.entries.size >= this.capacity) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
    this.entries.set(key, hit);
    return hit.cloneNode(true) as DocumentFragment;
  }
}
