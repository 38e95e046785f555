/**
 * Renders model or user text as sanitised DOM (see markdownEngine.ts). The fragment is attached
 * with `replaceChildren`, never through an HTML string, so nothing is parsed twice. Completed
 * text is cached. Streaming markdown is updated block by block (markdownStream.ts), at most once
 * per frame by the store's batching: only the growing block is rendered again, the settled ones
 * keep their DOM, so a long message costs no more per frame than a short one; when it completes,
 * its DOM stays as it is unless the whole text renders differently.
 *
 * Markdown needs the markdown chunk, which loads after the panel's first paint: until it is there
 * the text shows as plain text (never as HTML), and it is rendered again when the chunk arrives.
 */
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { usePanel } from '../context';
import { renderPlainText, type LazyMarkdown, type MarkdownModule } from '../markdown';
import type { MarkdownStream } from '../markdownStream';

export type TextFormat = 'markdown' | 'inline' | 'plain';

export interface RichTextProps {
  text: string;
  /** `markdown` for model output, `inline` for one-line markdown, `plain` for user input and tool output. */
  format: TextFormat;
  /** Streaming text changes every frame: not worth caching. */
  streaming?: boolean;
  class?: string;
}

/** The markdown chunk once it has loaded (when `needed`); re-renders the caller when it arrives. */
function useMarkdownModule(markdown: LazyMarkdown, needed: boolean): MarkdownModule | undefined {
  const [module, setModule] = useState(markdown.module);
  useEffect(() => {
    if (!needed) return undefined;
    if (markdown.module) {
      setModule(markdown.module);
      return undefined;
    }
    const stop = markdown.subscribe(() => setModule(markdown.module));
    void markdown.load();
    return stop;
  }, [markdown, needed]);
  return module;
}

function renderWith(md: MarkdownModule, format: TextFormat, text: string): DocumentFragment {
  if (format === 'markdown') return md.renderMarkdown(text);
  if (format === 'inline') return md.renderInlineMarkdown(text);
  return renderPlainText(text);
}

export function RichText({ text, format, streaming, class: cls }: RichTextProps) {
  const { renderCache, markdown } = usePanel();
  const md = useMarkdownModule(markdown, format !== 'plain');
  const ref = useRef<HTMLElement>(null);
  const stream = useRef<MarkdownStream | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (format !== 'plain' && !md) {
      // The markdown chunk is still loading: the text as it is, for now.
      stream.current = null;
      el.replaceChildren(renderPlainText(text));
      return;
    }
    if (md && format === 'markdown' && (streaming || stream.current?.el === el)) {
      if (stream.current?.el !== el) stream.current = new md.MarkdownStream(el);
      if (streaming) {
        stream.current.update(text);
        return;
      }
      // Just completed: the streamed view already shows the text; settle keeps it when exact.
      stream.current.settle(text);
      stream.current = null;
      return;
    }
    stream.current = null;
    const render = () => (md ? renderWith(md, format, text) : renderPlainText(text));
    el.replaceChildren(streaming ? render() : renderCache.get(`${format}:${text}`, render));
  }, [text, format, streaming, renderCache, md]);
  const classes = `pw-${format}${cls ? ` ${cls}` : ''}`;
  return format === 'inline' ? (
    <span ref={ref as RefObject<HTMLSpanElement>} class={classes} />
  ) : (
    <div ref={ref as RefObject<HTMLDivElement>} class={classes} />
  );
}
