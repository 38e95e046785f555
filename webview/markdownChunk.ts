/**
 * The panel's markdown chunk, loaded after the first paint (see markdown.ts): marked and
 * DOMPurify behind the renderers, and the streaming renderer built on them.
 */
export { renderInlineMarkdown, renderMarkdown } from './markdownEngine';
export { MarkdownStream } from './markdownStream';
