import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { PAGE_SNAPSHOT_ID, jsonForScriptElement } from '../../src/protocol';
import { pageSnapshot } from '../../webview/pageSnapshot';
import { UiStateStore } from '../../webview/uiState';

/** VS Code's setState store, kept across loads of a view the way VS Code keeps it. */
function persistedApi() {
  let state: unknown;
  return {
    getState: () => state,
    setState: (s: unknown) => {
      state = JSON.parse(JSON.stringify(s));
    },
  };
}

const page = (block: string | undefined) =>
  new JSDOM(
    `<body><div id="root"></div>${block === undefined ? '' : `<script type="application/json" id="${PAGE_SNAPSHOT_ID}">${block}</script>`}</body>`,
  ).window.document;

describe("webview: the page's snapshot", () => {
  const message = { type: 'snapshot', seq: 3, state: { note: '</script> stays text' } };

  it("is used on the page's first load and not when VS Code loads the same page again", () => {
    const api = persistedApi();
    const html = jsonForScriptElement({ page: 'p-1', message });
    assert.deepEqual(pageSnapshot(page(html), new UiStateStore(api)), message);
    // The view was hidden and re-created from the same HTML: its snapshot is old by now.
    assert.equal(pageSnapshot(page(html), new UiStateStore(api)), undefined);
    // A new page (the host resolved the view again) is used again.
    assert.deepEqual(
      pageSnapshot(page(jsonForScriptElement({ page: 'p-2', message })), new UiStateStore(api)),
      message,
    );
  });

  it('keeps the rest of the saved UI state when it remembers the page', () => {
    const api = persistedApi();
    const ui = new UiStateStore(api);
    ui.rememberDraft('half a task');
    pageSnapshot(page(jsonForScriptElement({ page: 'p-1', message })), ui);
    assert.equal(new UiStateStore(api).get().draft, 'half a task');
    assert.equal(new UiStateStore(api).get().page, 'p-1');
  });

  it('is nothing for a page without one, unreadable JSON, or a block without a page id', () => {
    for (const block of [
      undefined,
      '',
      '{not json',
      'null',
      '42',
      JSON.stringify({ message }),
      JSON.stringify({ page: '', message }),
    ]) {
      assert.equal(pageSnapshot(page(block), new UiStateStore(persistedApi())), undefined, String(block));
    }
  });
});
