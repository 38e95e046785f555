/**
 * Model text before and after the markdown chunk loads (it comes after the panel's first paint):
 * until then markdown shows as the plain text it is, never as HTML, and it is rendered as
 * markdown, sanitised, once the chunk arrives; a chunk that fails to load leaves the text plain.
 */
import './setupDom';
import assert from 'node:assert/strict';
import { act, render } from '@testing-library/preact';
import { PanelContext, type PanelServices } from '../../webview/context';
import { RichText } from '../../webview/components/RichText';
import { LazyMarkdown, RenderCache, type MarkdownModule } from '../../webview/markdown';
import * as markdownChunk from '../../webview/markdownChunk';
import { UiStateStore } from '../../webview/uiState';

function mount(markdown: LazyMarkdown, text: string, format: 'markdown' | 'inline' = 'markdown') {
  const services: PanelServices = {
    post: () => {},
    ui: new UiStateStore({ getState: () => undefined, setState: () => {} }),
    renderCache: new RenderCache(),
    markdown,
  };
  return render(
    <PanelContext.Provider value={services}>
      <RichText text={text} format={format} />
    </PanelContext.Provider>,
  );
}

describe('panel: model text while the markdown chunk loads', () => {
  const text = 'Edit **src/app.ts** <img src=x onerror="window.__pwned=1">';

  it('shows plain text first, then the markdown rendering when the chunk arrives', async () => {
    let arrive!: (m: MarkdownModule) => void;
    const lazy = new LazyMarkdown(() => new Promise<MarkdownModule>((r) => (arrive = r)));
    const view = mount(lazy, text);
    const el = view.container.querySelector('.pw-markdown')!;
    assert.equal(el.textContent, text, 'the text as it is');
    assert.equal(el.querySelector('strong, img'), null, 'nothing rendered as HTML');
    await act(async () => arrive(markdownChunk));
    assert.equal(el.querySelector('strong')?.textContent, 'src/app.ts');
    assert.equal(el.querySelector('img'), null, 'sanitised');
    assert.equal(el.querySelector('a.pw-file-link')?.textContent, 'src/app.ts', 'file references linked');
  });

  it('renders at once when the chunk is already there, inline text included', () => {
    const view = mount(new LazyMarkdown(markdownChunk), 'a *b* c', 'inline');
    assert.equal(view.container.querySelector('.pw-inline em')?.textContent, 'b');
  });

  it('keeps the text plain, and says so once, when the chunk cannot load', async () => {
    const warnings: string[] = [];
    const lazy = new LazyMarkdown(
      () => Promise.reject(new Error('offline')),
      (m) => warnings.push(m),
    );
    const view = mount(lazy, text);
    await act(async () => {
      await lazy.load();
    });
    assert.equal(view.container.querySelector('.pw-markdown')!.textContent, text);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /plain text.*offline/);
  });
});
