import assert from 'node:assert/strict';
import { z } from 'zod';
import { applyTrackerAction, trackerActionSchema, INDEX_PATH_PATTERN } from '../../src/core/plan/trackerActions';
import { trackerCounts, type Tracker, type TaskItem } from '../../src/core/plan/tracker';

const leaf = (description: string, status: TaskItem['status'] = 'pending'): TaskItem => ({
  description,
  status,
  files: [],
  verify: [],
  children: [],
});

const base: Tracker = {
  title: 'Work',
  items: [
    leaf('one'),
    { ...leaf('two'), children: [leaf('two.a'), { ...leaf('two.b'), children: [leaf('two.b.i')] }] },
    leaf('three'),
  ],
};

function ok(action: unknown, t: Tracker = base): Tracker {
  const r = applyTrackerAction(t, action);
  if (!r.ok) assert.fail(`expected success, got: ${r.error}`);
  return r.tracker;
}

function err(action: unknown, t: Tracker = base): string {
  const r = applyTrackerAction(t, action);
  if (r.ok) assert.fail('expected an error');
  return r.error;
}

describe('tracker actions (rules §5)', () => {
  it("re-derives only the changed item's ancestors; a parent elsewhere keeps the status its file gave it", () => {
    // As VT Code writes it: a parent in progress with a blocked child (derived, it would be blocked).
    const vtcode: Tracker = {
      title: 'Work',
      items: [leaf('one'), { ...leaf('two', 'in_progress'), children: [leaf('two.a', 'blocked')] }],
    };
    const one = ok({ action: 'update', index: 1, status: 'completed' }, vtcode);
    assert.deepEqual(
      one.items.map((i) => i.status),
      ['completed', 'in_progress'],
    );
    const renamed = ok({ action: 'update', index_path: '2.1', description: 'two.a, reworded' }, vtcode);
    assert.equal(renamed.items[1]?.status, 'in_progress', 'a new description is no status change');
    const child = ok({ action: 'update', index_path: '2.1', status: 'completed' }, vtcode);
    assert.deepEqual(
      child.items.map((i) => i.status),
      ['pending', 'completed'],
      'the parent of a changed child follows it',
    );
  });

  it('create replaces the checklist with bulk items, parsing files and verify and dropping duplicates', () => {
    const t = ok({
      action: 'create',
      title: 'New',
      items: [
        'Build -> files: a.ts, b.ts -> verify: npm test',
        'Build -> files: a.ts, b.ts -> verify: npm test',
        'Ship',
      ],
    });
    assert.equal(t.title, 'New');
    assert.deepEqual(t.items, [
      { description: 'Build', status: 'pending', files: ['a.ts', 'b.ts'], verify: ['npm test'], children: [] },
      leaf('Ship'),
    ]);
  });

  it('index is 1-based and addresses a top-level item', () => {
    const t = ok({ action: 'update', index: 1, status: 'completed' });
    assert.equal(t.items[0]?.status, 'completed');
    assert.equal(t.items[1]?.status, 'pending');
  });

  it('index_path addresses items at any depth and parents are derived from children', () => {
    let t = ok({ action: 'update', index_path: '2.2.1', status: 'completed' });
    assert.equal(t.items[1]?.children[1]?.children[0]?.status, 'completed');
    assert.equal(t.items[1]?.children[1]?.status, 'completed');
    assert.equal(t.items[1]?.status, 'in_progress');
    t = ok({ action: 'update', index_path: '2.1', status: 'blocked' }, t);
    assert.equal(t.items[1]?.status, 'blocked');
  });

  it('updating a parent sets every item under it', () => {
    const t = ok({ action: 'update', index: 2, status: 'completed' });
    assert.deepEqual(trackerCounts(t), { pending: 2, in_progress: 0, completed: 2, blocked: 0, total: 4, percent: 50 });
  });

  it('index 0 with status completed completes the whole checklist', () => {
    const t = ok({ action: 'update', index: 0, status: 'completed' });
    assert.equal(trackerCounts(t).percent, 100);
  });

  it('index 0 with any other status is an error', () => {
    for (const status of ['pending', 'in_progress', 'blocked']) {
      assert.equal(
        err({ action: 'update', index: 0, status }),
        'index 0 means "the whole checklist" and is only valid with status "completed"; use a 1-based index for one item',
      );
    }
  });

  it('rejects a negative or fractional index and an index out of range', () => {
    assert.match(
      err({ action: 'update', index: -1, status: 'completed' }),
      /^index -1 is invalid: use a whole number from 1/,
    );
    assert.match(err({ action: 'update', index: 1.5, status: 'completed' }), /^index 1\.5 is invalid/);
    assert.equal(
      err({ action: 'update', index: 4, status: 'completed' }),
      'index 4 does not exist: the checklist has items 1-3',
    );
  });

  it('index_path must match ^[1-9][0-9]*(\\.[1-9][0-9]*)*$', () => {
    for (const good of ['1', '2.1', '10.3.7']) assert.equal(INDEX_PATH_PATTERN.test(good), true, good);
    for (const bad of ['0', '2.0', '01', '1.', '.1', '1..2', 'a', '2,1', '-1', '']) {
      assert.equal(INDEX_PATH_PATTERN.test(bad), false, bad);
      assert.equal(
        err({ action: 'update', index_path: bad, status: 'completed' }),
        `index_path "${bad}" is invalid: use 1-based numbers joined by dots, e.g. "2" or "2.1"`,
      );
    }
  });

  it('reports an index_path that does not exist, naming what does', () => {
    assert.equal(
      err({ action: 'update', index_path: '2.3', status: 'completed' }),
      'index_path "2.3" does not exist: item 2 has items 1-2',
    );
    assert.equal(
      err({ action: 'update', index_path: '1.1', status: 'completed' }),
      'index_path "1.1" does not exist: item 1 has no items',
    );
  });

  it('index and index_path together is an error', () => {
    assert.equal(
      err({ action: 'update', index: 1, index_path: '1', status: 'completed' }),
      'use either index or index_path, not both',
    );
  });

  it('index or index_path with items is an error', () => {
    const msg = 'items is for bulk synchronization: send it without index or index_path';
    assert.equal(err({ action: 'update', index: 1, items: ['x'] }), msg);
    assert.equal(err({ action: 'update', index_path: '1', items: ['x'] }), msg);
    assert.equal(err({ action: 'create', index: 1, items: ['x'] }), msg);
  });

  it('update with items synchronizes the whole checklist, keeping metadata of matching items', () => {
    const withMeta = ok({ action: 'create', items: ['Build -> files: a.ts -> verify: npm test', 'Ship'] });
    const t = ok(
      { action: 'update', items: [{ description: 'Build', status: 'completed' }, 'Ship', 'Announce'] },
      withMeta,
    );
    assert.deepEqual(t.items, [
      { description: 'Build', status: 'completed', files: ['a.ts'], verify: ['npm test'], children: [] },
      leaf('Ship'),
      leaf('Announce'),
    ]);
  });

  it('add appends at the top level or under parent_index_path, at any depth', () => {
    let t = ok({ action: 'add', description: 'four -> files: d.ts' });
    assert.deepEqual(t.items[3], { ...leaf('four'), files: ['d.ts'] });
    t = ok({ action: 'add', parent_index_path: '2.2.1', description: 'deep', status: 'in_progress' }, t);
    assert.equal(t.items[1]?.children[1]?.children[0]?.children[0]?.description, 'deep');
    assert.equal(t.items[1]?.status, 'in_progress');
    t = ok({ action: 'add', parent_index_path: '1', items: ['x', 'y'] }, t);
    assert.deepEqual(
      t.items[0]?.children.map((c) => c.description),
      ['x', 'y'],
    );
  });

  it('add rejects a bad or missing parent and index/index_path', () => {
    assert.equal(
      err({ action: 'add', parent_index_path: '9', description: 'x' }),
      'parent_index_path "9" does not exist: the checklist has items 1-3',
    );
    assert.match(
      err({ action: 'add', parent_index_path: '2.0', description: 'x' }),
      /^parent_index_path "2\.0" is invalid/,
    );
    assert.equal(
      err({ action: 'add', index: 1, description: 'x' }),
      'add takes parent_index_path (e.g. "2") for where to add, not index or index_path',
    );
    assert.equal(err({ action: 'add' }), 'add needs a non-empty description (or items)');
  });

  it('rejects malformed arguments with a message naming the field', () => {
    assert.equal(
      err({ action: 'update', index: 1, status: 'done' }),
      'invalid task_tracker arguments: status: must be one of pending, in_progress, completed, blocked',
    );
    assert.match(err({ action: 'delete' }), /^invalid task_tracker arguments: action: /);
    assert.match(err('nope'), /^invalid task_tracker arguments: arguments: /);
    assert.equal(err({ action: 'create', items: [] }), 'create needs a non-empty items list');
    assert.equal(
      err({ action: 'update', status: 'completed' }),
      'update needs index (1-based), index_path (e.g. "2.1") or items for bulk synchronization',
    );
    assert.equal(
      err({ action: 'update', index: 1 }),
      'update needs something to change: status, description, files or verify',
    );
    assert.equal(
      err({ action: 'update', parent_index_path: '1', index: 1, status: 'completed' }),
      'parent_index_path is only for add; update takes index or index_path',
    );
  });

  it('never modifies the tracker it is given', () => {
    const before = JSON.stringify(base);
    ok({ action: 'update', index_path: '2.2.1', status: 'completed' });
    ok({ action: 'add', parent_index_path: '2', description: 'z' });
    assert.equal(JSON.stringify(base), before);
  });

  it('the schema converts to JSON Schema for the tool definition', () => {
    const schema = z.toJSONSchema(trackerActionSchema) as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.properties).sort(), [
      'action',
      'description',
      'files',
      'index',
      'index_path',
      'items',
      'parent_index_path',
      'status',
      'title',
      'verify',
    ]);
  });
});
