/**
 * Renders model or user text as sanitised DOM (see markdown.ts). The fragment is attached with
 * `replaceChildren`, never through an HTML string, so nothing is parsed twice. Completed text is
 * cached. Streaming markdown is updated block by block (markdownStream.ts), at most once per frame
 * by the store's batching: only the growing block is rendered again, the settled ones keep their
 * DOM, so a long message costs no more per frame than a short one; when it completes, its DOM
 * stays as it is unless the whole text renders differently.
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { usePanel } from '../context';
import { renderInlineMarkdown, renderMarkdown, renderPlainText } from '../markdown';
import { MarkdownStream } from '../markdownStream';

export type TextFormat = 'markdown' | 'inline' | 'plain';

export interface RichTextProps {
  text: string;
  /** `markdown` for model output, `inline` for one-line markdown, `plain` for user input and tool output. */
  format: TextFormat;
  /** Streaming text changes every frame: not worth caching. */
  streaming?: boolean;
  class?: string;
}

const RENDER: Record<TextFormat, (text: string) => DocumentFragment> = {
  markdown: renderMarkdown,
  inline: renderInlineMarkdown,
  plain: renderPlainText,
};

export function RichText({ text, format, streaming, class: cls }: RichTextProps) {
  const { renderCache } = usePanel();
  const ref = useRef<HTMLElement>(null);
  const stream = useRef<MarkdownStream | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (format === 'markdown' && (streaming || stream.current?.el === el)) {
      if (stream.current?.el !== el) stream.current = new MarkdownStream(el);
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
    const render = () => RENDER[format](text);
    el.replaceChildren(streaming ? render() : renderCache.get(`${format}:${text}`, render));
  }, [text, format, streaming, renderCache]);
  const classes = `pw-${format}${cls ? ` ${cls}` : ''}`;
  return format === 'inline' ? (
    <span ref={ref as RefObject<HTMLSpanElement>} class={classes} />
  ) : (
    <div ref={ref as RefObject<HTMLDivElement>} class={classes} />
  );
}
