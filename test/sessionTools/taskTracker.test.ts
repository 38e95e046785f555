import assert from 'node:assert/strict';
import { renderTrackerTree, type Tracker } from '../../src/core/plan/tracker';
import { runTool } from '../../src/core/tools';
import { taskTrackerTool as tool } from '../../src/core/tools/session/taskTracker';
import { createTrackerHandle } from '../../src/core/tools/session/trackerHandle';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor } from './helpers';

describe('task_tracker', () => {
  let ws: TempWorkspace;
  let saved: Tracker[];
  const handle = () => createTrackerHandle({ defaultTitle: 'Plan', persist: async (t) => void saved.push(t) });
  beforeEach(() => {
    ws = makeTempWorkspace();
    saved = [];
  });
  afterEach(() => ws.cleanup());

  it('creates a checklist in bulk and returns the compact tree, with files and checks kept structured', async () => {
    const tracker = handle();
    const r = await runTool(
      tool,
      JSON.stringify({
        action: 'create',
        title: 'Cache',
        items: [
          'Add cache -> files: src/cache.ts -> verify: npm test',
          { description: 'Wire it', children: ['Config', 'CLI flag'] },
        ],
      }),
      agentContextFor(ws, { tracker }),
    );
    assert.equal(r.ok, true, r.content);
    assert.equal(
      r.content,
      ['Cache (0/3 completed, 0%)', '├─ □ Add cache', '└─ Wire it', '   ├─ □ Config', '   └─ □ CLI flag'].join('\n'),
    );
    const item = tracker.get()?.items[0];
    assert.deepEqual(item?.files, ['src/cache.ts']);
    assert.deepEqual(item?.verify, ['npm test']);
    assert.equal(saved.length, 1);
  });

  it('marks items in progress and completed by index and index_path; parents follow their children', async () => {
    const tracker = handle();
    const ctx = agentContextFor(ws, { tracker });
    await tool.run({ action: 'create', items: ['One', { description: 'Two', children: ['A', 'B'] }] }, ctx);
    const a = await tool.run({ action: 'update', index: 1, status: 'completed' }, ctx);
    assert.match(a.content, /^Plan \(1\/3 completed, 33%\)\n├─ \[x\] One/);
    const b = await tool.run({ action: 'update', index_path: '2.1', status: 'in_progress' }, ctx);
    assert.match(b.content, /└─ Two\n {3}├─ \[-\] A\n {3}└─ □ B$/);
    assert.equal(tracker.get()?.items[1]?.status, 'in_progress');
    const c = await tool.run({ action: 'add', parent_index_path: '2', description: 'C' }, ctx);
    assert.match(c.content, /└─ □ C$/);
    const done = await tool.run({ action: 'update', index: 0, status: 'completed' }, ctx);
    assert.match(done.content, /^Plan \(4\/4 completed, 100%\)/);
    assert.equal(saved.length, 5);
  });

  const rejections: [string, Record<string, unknown>, RegExp][] = [
    [
      'index and index_path together',
      { action: 'update', index: 1, index_path: '1', status: 'completed' },
      /either index or index_path/,
    ],
    ['index with items', { action: 'update', index: 1, items: ['x'] }, /items is for bulk synchronization/],
    [
      'index 0 without completed',
      { action: 'update', index: 0, status: 'in_progress' },
      /index 0 means "the whole checklist"/,
    ],
    [
      'an index past the end',
      { action: 'update', index: 3, status: 'completed' },
      /index 3 does not exist: the checklist has items 1-2/,
    ],
    [
      'a malformed index_path',
      { action: 'update', index_path: '1.0', status: 'completed' },
      /index_path "1.0" is invalid/,
    ],
    [
      'an index_path past the end',
      { action: 'update', index_path: '2.3', status: 'completed' },
      /index_path "2.3" does not exist: item 2 has items 1-1/,
    ],
    ['an update with nothing to change', { action: 'update', index: 1 }, /needs something to change/],
    ['add with an index', { action: 'add', index: 1, description: 'x' }, /add takes parent_index_path/],
    ['create with no items', { action: 'create', items: [] }, /create needs a non-empty items list/],
  ];
  for (const [name, args, expected] of rejections) {
    it(`rejects ${name}, changes nothing and shows the current checklist`, async () => {
      const tracker = handle();
      const ctx = agentContextFor(ws, { tracker });
      await tool.run({ action: 'create', items: ['One', { description: 'Two', children: ['A'] }] }, ctx);
      const before = tracker.get() as Tracker;
      const r = await runTool(tool, JSON.stringify(args), ctx);
      assert.equal(r.ok, false);
      assert.match(r.content, expected);
      assert.ok(r.content.endsWith(`The checklist is unchanged:\n${renderTrackerTree(before)}`), r.content);
      assert.deepEqual(tracker.get(), before);
      assert.equal(saved.length, 1);
    });
  }

  it('rejects arguments outside the schema before the tracker is touched', async () => {
    const tracker = handle();
    const ctx = agentContextFor(ws, { tracker });
    await tool.run({ action: 'create', items: ['One'] }, ctx);
    const r = await runTool(tool, JSON.stringify({ action: 'update', index: 1, status: 'done' }), ctx);
    assert.equal(r.ok, false);
    assert.match(
      r.content,
      /^task_tracker: invalid arguments \(status: .*"pending"\|"in_progress"\|"completed"\|"blocked"/,
    );
    assert.equal(tracker.get()?.items[0]?.status, 'pending');
    assert.equal(saved.length, 1);
  });

  it('says there is no checklist yet when an update fails before any create', async () => {
    const r = await tool.run(
      { action: 'update', index: 1, status: 'completed' },
      agentContextFor(ws, { tracker: handle() }),
    );
    assert.equal(r.ok, false);
    assert.match(
      r.content,
      /index 1 does not exist: the checklist has no items\nThere is no checklist yet: use action "create"/,
    );
  });

  it('reports a failed save and keeps the previous tracker', async () => {
    let fail = false;
    const tracker = createTrackerHandle({
      persist: async () => {
        if (fail) throw new Error('disk full');
      },
    });
    const ctx = agentContextFor(ws, { tracker });
    await tool.run({ action: 'create', items: ['One'] }, ctx);
    fail = true;
    const r = await tool.run({ action: 'update', index: 1, status: 'completed' }, ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /could not be saved \(disk full\); it was not applied/);
    assert.equal(tracker.get()?.items[0]?.status, 'pending');
  });

  it('applies concurrent actions one after another, so none is lost', async () => {
    const tracker = handle();
    const ctx = agentContextFor(ws, { tracker });
    await tool.run({ action: 'create', items: ['One'] }, ctx);
    await Promise.all(['A', 'B', 'C', 'D'].map((d) => tool.run({ action: 'add', description: d }, ctx)));
    assert.deepEqual(
      tracker.get()?.items.map((i) => i.description),
      ['One', 'A', 'B', 'C', 'D'],
    );
  });

  it('hands out copies: changing what get() returned does not change the live tracker', async () => {
    const tracker = handle();
    await tracker.apply({ action: 'create', items: ['One'] });
    const copy = tracker.get() as Tracker;
    copy.items[0]!.status = 'completed';
    assert.equal(tracker.get()?.items[0]?.status, 'pending');
  });

  it('needs a tracker in its context', async () => {
    const { tracker: _none, ...rest } = agentContextFor(ws);
    await assert.rejects(tool.run({ action: 'create', items: ['x'] }, rest as never), /task_tracker .*"tracker"/);
  });
});
