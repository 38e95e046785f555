import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { DeltaOp, TranscriptItem } from '../../src/protocol';
import { sessionScenes } from './scenes';

const planningOps = (): DeltaOp[][] => sessionScenes(Date.now()).find((s) => s.name === 'planning')!.ops;

describe('panel: planning stream', () => {
  it('streams assistant markdown as it arrives and marks it finished', () => {
    const p = mountPanel();
    p.update([
      { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } },
      { op: 'item.add', item: { id: 'a', kind: 'assistant', text: '', streaming: true } },
    ]);
    p.update([{ op: 'item.append', id: 'a', text: 'The router is in **src/' }]);
    const item = () => p.container.querySelector('.pw-assistant')!;
    assert.ok(item().classList.contains('pw-streaming'));
    p.update([{ op: 'item.append', id: 'a', text: 'server/app.ts:12**.' }]);
    assert.equal(item().querySelector('strong')?.textContent, 'src/server/app.ts:12');
    p.update([{ op: 'item.patch', id: 'a', patch: { streaming: false } }]);
    assert.ok(!item().classList.contains('pw-streaming'));
    assert.equal(p.getByRole('status').textContent, 'Planning');
  });

  it('applies a frame of many deltas with one render of the final text', () => {
    const p = mountPanel();
    p.update([{ op: 'item.add', item: { id: 'a', kind: 'assistant', text: '', streaming: true } }]);
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    // Deliver 50 deltas without running a frame in between, then one frame.
    for (const w of words)
      p.store.receive(JSON.parse(JSON.stringify(p.host.update([{ op: 'item.append', id: 'a', text: w }]))));
    assert.equal(p.container.querySelector('.pw-assistant')!.textContent, '', 'nothing rendered before the frame');
    p.frame();
    assert.equal(p.container.querySelector('.pw-assistant')!.textContent!.trim(), words.join('').trim());
  });

  it('shows thinking collapsed, tool calls with verdicts, results collapsed with their size', () => {
    const p = mountPanel();
    for (const ops of planningOps()) p.update(ops);
    const thinking = p.getByRole('button', { name: /Thought/ });
    assert.equal(thinking.getAttribute('aria-expanded'), 'false');
    assert.equal(p.queryByText('Find the router first, then the config.'), null);
    fireEvent.click(thinking);
    assert.ok(p.getByText('Find the router first, then the config.'));
    assert.equal(p.getByRole('button', { name: /Thought/ }).getAttribute('aria-expanded'), 'true');

    // Each call reads as its tool describes it; one that was refused says it did not run.
    const titles = [...p.container.querySelectorAll('.pw-tool-title')].map((e) => e.textContent);
    assert.deepEqual(titles, ['Read src/server/app.ts', 'Not run: rm -rf build']);
    assert.ok(p.getByRole('img', { name: 'allowed and ran' }));
    assert.ok(p.getByRole('img', { name: 'blocked before it ran' }));
    const blocked = p.container.querySelector('.pw-tool-blocked')!;
    assert.match(blocked.textContent!, /Blocked: rm changes files; planning is read-only\./);
    assert.equal(blocked.querySelector('.pw-verdict code')?.textContent, 'rm', 'the reason renders inline markdown');

    const result = p.getByRole('button', { name: /Result · 2\.\d KB/ });
    assert.equal(p.queryByText('import express…'), null);
    fireEvent.click(result);
    assert.ok(p.getByText('import express…'));
  });

  it('keeps expanded items expanded in the saved UI state', () => {
    const p = mountPanel();
    for (const ops of planningOps()) p.update(ops);
    fireEvent.click(p.getByRole('button', { name: /Thought/ }));
    const saved = p.savedUi() as { expanded: Record<string, boolean> };
    assert.equal(saved.expanded['item:t1'], true);
    p.unmount();
    const again = mountPanel({ savedUi: saved });
    for (const ops of planningOps()) again.update(ops);
    assert.ok(again.getByText('Find the router first, then the config.'));
  });

  it('turns file references into links that ask the host to open the file', () => {
    const p = mountPanel();
    for (const ops of planningOps()) p.update(ops);
    const link = p.getByRole('link', { name: 'src/server/app.ts:12' });
    fireEvent.click(link);
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: 'src/server/app.ts', line: 12 }]);
  });

  it('renders a plan card with its revision, validity and file link', () => {
    const p = mountPanel();
    p.update([
      {
        op: 'item.add',
        item: {
          id: 'p',
          kind: 'plan',
          markdown: '# Plan A\n\n1. Step',
          file: '.vtcode/plans/a.md',
          revision: 3,
          valid: false,
          streaming: false,
        },
      },
    ]);
    const card = p.getByRole('article', { name: 'Plan' });
    assert.match(card.textContent!, /revision 3/);
    assert.match(card.textContent!, /needs work/);
    assert.equal(card.querySelector('h1')?.textContent, 'Plan A');
    fireEvent.click(p.getByRole('link', { name: '.vtcode/plans/a.md' }));
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: '.vtcode/plans/a.md' }]);
  });

  it('a fresh thread (Clear context and implement) leaves only the plan and the notices on the panel', () => {
    const p = mountPanel();
    p.update([
      { op: 'item.add', item: { id: 'u', kind: 'user', text: 'add a greeting helper' } },
      { op: 'item.add', item: { id: 'a', kind: 'assistant', text: 'I read the README first.', streaming: false } },
      {
        op: 'item.add',
        item: {
          id: 'p',
          kind: 'plan',
          markdown: '# Plan A\n\n1. Step',
          file: 'a.md',
          revision: 1,
          valid: true,
          streaming: false,
        },
      },
      {
        op: 'item.add',
        item: { id: 'd', kind: 'notice', level: 'info', text: 'Plan approved: building in a fresh context.' },
      },
    ]);
    assert.match(p.container.textContent!, /I read the README first\./);
    p.update([
      { op: 'transcript.restart', keep: ['p', 'd'] },
      {
        op: 'item.add',
        item: { id: 'f', kind: 'notice', level: 'info', text: 'Fresh context: the approved plan was carried over.' },
      },
    ]);
    const text = p.container.querySelector('[role="log"]')!.textContent!;
    assert.ok(!text.includes('add a greeting helper'), text);
    assert.ok(!text.includes('I read the README first.'), text);
    assert.equal(p.getByRole('article', { name: 'Plan' }).querySelector('h1')?.textContent, 'Plan A');
    assert.ok(text.indexOf('Plan approved') < text.indexOf('Fresh context: the approved plan'), text);
    assert.deepEqual(
      p.store.getState().transcript.map((i) => i.id),
      ['p', 'd', 'f'],
    );
  });

  it('keeps only the rows near the viewport in the DOM for a long transcript', () => {
    const items: TranscriptItem[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `n${i}`,
      kind: 'notice',
      level: 'info',
      text: `notice number ${i}`,
    }));
    const p = mountPanel({ state: { transcript: items } });
    const rows = p.container.querySelectorAll('.pw-row');
    assert.ok(rows.length > 5 && rows.length < 100, `rendered ${rows.length} rows`);
    assert.ok(p.getByText('notice number 2999'), 'follows the end of the transcript');
    assert.equal(p.queryByText('notice number 0'), null);
    const scroller = p.container.querySelector<HTMLElement>('.pw-scroller')!;
    assert.match(scroller.style.getPropertyValue('--pw-before'), /^\d+px$/);
    assert.notEqual(scroller.style.getPropertyValue('--pw-before'), '0px');
  });

  it('moves the window of rows in batches while a message streams, not line by line', () => {
    const notes: TranscriptItem[] = Array.from({ length: 300 }, (_, i) => ({
      id: `n${i}`,
      kind: 'notice',
      level: 'info',
      text: `notice number ${i}`,
    }));
    const p = mountPanel({
      state: { transcript: [...notes, { id: 's', kind: 'assistant', text: '', streaming: true }] },
    });
    const firstRow = () => p.container.querySelector<HTMLElement>('.pw-row')!;
    const line = `${'word '.repeat(12)}\n`; // 60 characters: one more line of the message's estimated height
    const mounted = new Set<HTMLElement>([firstRow()]);
    for (let i = 0; i < 60; i++) {
      p.update([{ op: 'item.append', id: 's', text: line }]);
      mounted.add(firstRow());
    }
    // 60 lines of 20 px scroll the view 1,200 px: one window move per line would be ~33 new first rows.
    assert.ok(mounted.size > 1, 'the window follows the stream');
    assert.ok(mounted.size <= 6, `the first row changed ${mounted.size - 1} times`);
    assert.ok(p.container.querySelector('.pw-assistant'), 'the streaming message stays rendered');
  });
});

describe('panel: transcript scroll state', () => {
  it('comes back not following when the person had scrolled up before the view was re-created', () => {
    const items: TranscriptItem[] = Array.from({ length: 500 }, (_, i) => ({
      id: `u${i}`,
      kind: 'user',
      text: `m${i}`,
    }));
    const following = mountPanel({ state: { transcript: items } });
    assert.equal(following.queryByRole('button', { name: 'Jump to latest' }), null);
    following.unmount();
    const p = mountPanel({ state: { transcript: items }, savedUi: { follow: false, scrollTop: 0 } });
    assert.ok(p.getByRole('button', { name: 'Jump to latest' }));
    assert.ok(p.getByText('m0'), 'starts where the person was (the top), not at the end');
    fireEvent.click(p.getByRole('button', { name: 'Jump to latest' }));
    assert.equal(p.queryByRole('button', { name: 'Jump to latest' }), null);
  });
});

describe('panel: robustness', () => {
  it('ignores malformed host messages and keeps working', () => {
    const p = mountPanel();
    p.update([{ op: 'item.add', item: { id: 'u', kind: 'user', text: 'hello' } }]);
    const before = p.container.innerHTML;
    p.send({ type: 'delta', seq: p.host.lastSeq + 1, ops: [{ op: 'item.add', item: { id: 'x', kind: 'script' } }] });
    p.send('<img src=x onerror=alert(1)>');
    p.send({ type: 'snapshot', seq: 1, state: { transcript: 'nope' } });
    assert.equal(p.container.innerHTML, before);
    assert.equal(p.store.droppedCount, 3);
    p.update([{ op: 'item.add', item: { id: 'u2', kind: 'user', text: 'still listening' } }]);
    assert.ok(p.getByText('still listening'));
    assert.equal(p.sent('resync').length, 0);
  });

  it('asks for a resync on a sequence gap and recovers from the snapshot', () => {
    const p = mountPanel();
    p.update([{ op: 'item.add', item: { id: 'u', kind: 'user', text: 'first' } }]);
    p.host.update([{ op: 'item.add', item: { id: 'lost', kind: 'user', text: 'lost delta' } }]);
    p.update([{ op: 'item.add', item: { id: 'u3', kind: 'user', text: 'after the gap' } }]);
    assert.deepEqual(p.sent('resync'), [{ type: 'resync', lastSeq: p.host.lastSeq - 2 }]);
    assert.equal(p.queryByText('after the gap'), null);
    p.send(JSON.parse(JSON.stringify(p.host.snapshot())));
    assert.ok(p.getByText('lost delta'));
    assert.ok(p.getByText('after the gap'));
  });
});
