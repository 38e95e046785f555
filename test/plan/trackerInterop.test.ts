/**
 * Tracker files both tools read the same way (rules §4), judged on VT Code's own files: the real
 * trackers and the plans persisted exactly as VT Code writes them, in `../shared/vtcode-interop/`
 * (relative to the repository root, as CI has it). The reader these tests compare with is
 * `vtcodeTrackerReader.ts`, written from VT Code's rules and checked here against the counts
 * VT Code recorded; Planwise's own parser plays no part in it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { PlanStore } from '../../src/core/plan/store';
import {
  parseTrackerFile,
  trackerFromPlan,
  type TaskItem,
  type TaskStatus,
  type Tracker,
} from '../../src/core/plan/tracker';
import { applyTrackerAction } from '../../src/core/plan/trackerActions';
import { extractTrackerBlock } from '../../src/core/plan/trackerBlock';
import { writeTrackerText } from '../../src/core/plan/trackerPatch';
import { validatePlan } from '../../src/core/plan/validator';
import { vtcodeCounts, vtcodeRead, type VtNode, type VtStatus } from './vtcodeTrackerReader';

const repo = resolve(__dirname, '../..');
const data = join(repo, '../shared/vtcode-interop');

interface Row {
  file: string;
  [column: string]: string;
}

function expected(folder: string): Row[] {
  const [head = '', ...rows] = readFileSync(join(data, folder, 'EXPECTED.tsv'), 'utf8')
    .trimEnd()
    .split('\n');
  const columns = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [columns[i] as string, v])) as Row);
}

function countsOf(row: Row): Record<'total' | VtStatus, number> {
  return {
    total: Number(row['total']),
    completed: Number(row['completed']),
    in_progress: Number(row['in_progress']),
    pending: Number(row['pending']),
    blocked: Number(row['blocked']),
  };
}

/** Planwise's tracker as VT Code's node list: every node, parents included, in file order. */
function nodesOf(items: readonly TaskItem[], depth = 0): VtNode[] {
  return items.flatMap((i) => [
    {
      depth,
      description: i.description,
      status: i.status,
      files: i.files,
      verify: i.verify,
      ...(i.outcome !== undefined ? { outcome: i.outcome } : {}),
    },
    ...nodesOf(i.children, depth + 1),
  ]);
}

const read = (p: string) => readFileSync(p, 'utf8');

/** Every file the data holds with the parser VT Code reads it with. */
function trackerFiles(): { name: string; text: string; parser: 'sidecar' | 'mirror'; row: Row }[] {
  const trackers = expected('trackers').map((row) => ({
    name: `trackers/${row.file}`,
    text: read(join(data, 'trackers', row.file)),
    parser: row['vtcode_parser'] as 'sidecar' | 'mirror',
    row,
  }));
  const persisted = expected('vtcode-persisted').map((row) => ({
    name: `vtcode-persisted/${row.file.replace(/\.md$/, '.tasks.md')}`,
    text: read(join(data, 'vtcode-persisted', row.file.replace(/\.md$/, '.tasks.md'))),
    parser: 'sidecar' as const,
    row,
  }));
  return [...trackers, ...persisted];
}

describe('tracker files as VT Code reads them (rules §4, ../shared/vtcode-interop)', () => {
  const files = trackerFiles();

  it('the data is there: 9 real trackers and 5 persisted plans with their sidecars', () => {
    assert.equal(files.length, 14);
    assert.equal(files.filter((f) => /\[\/\]/.test(f.text)).length, 3, 'three trackers mark in progress [/]');
  });

  it("the test's reader of VT Code's rules gives the counts VT Code recorded, for every file", () => {
    for (const f of files) {
      const reading = vtcodeRead(f.text, f.parser);
      assert.deepEqual(vtcodeCounts(reading.nodes), countsOf(f.row), f.name);
    }
  });

  it('Planwise reads the same title, items, statuses and metadata (files, outcome, verify) as VT Code', () => {
    for (const f of files) {
      const vt = vtcodeRead(f.text, f.parser);
      const pw = parseTrackerFile(f.text);
      assert.equal(pw.title, vt.title, f.name);
      const mine = nodesOf(pw.items);
      assert.deepEqual(mine, vt.nodes, f.name);
      // VT Code counts every node; Planwise's percent counts leaves, but its node counts agree.
      assert.deepEqual(vtcodeCounts(mine), countsOf(f.row), f.name);
    }
  });

  it('reads [/] as in progress, and a multi-command verify: block and outcome: lines as metadata', () => {
    const bbc = parseTrackerFile(read(join(data, 'trackers/vt-current_task-bbc43bfb1.md')));
    assert.equal(bbc.items[1]?.description, 'Format src/cli/skills/render.rs');
    assert.equal(bbc.items[1]?.status, 'in_progress');
    const otter = parseTrackerFile(read(join(data, 'vtcode-persisted/1764806400000-brisk-otter.tasks.md')));
    assert.deepEqual(otter.items[0]?.verify, ['cargo test parser::tests::parse_case', 'cargo nextest run']);
    assert.equal(otter.items[0]?.outcome, 'bounds check precedes the cursor advance');
    assert.equal(otter.items[1]?.status, 'in_progress', 'a parent keeps the status the file gives it');
    assert.equal(otter.items[1]?.children[0]?.status, 'blocked');
  });

  it("the block embedded in each persisted plan reads as its sidecar does, for VT Code's reader and Planwise's", () => {
    for (const row of expected('vtcode-persisted')) {
      const block = extractTrackerBlock(read(join(data, 'vtcode-persisted', row.file)));
      assert.ok(block !== undefined, row.file);
      const vt = vtcodeRead(block, 'sidecar');
      assert.deepEqual(vtcodeCounts(vt.nodes), countsOf(row), row.file);
      assert.deepEqual(nodesOf(parseTrackerFile(block).items), vt.nodes, row.file);
    }
  });
});

/** Positions where two texts of the same length differ. */
function changedOffsets(a: string, b: string): number[] {
  assert.equal(b.length, a.length, 'a status change keeps the length');
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

function paths(items: readonly TaskItem[], prefix = ''): string[] {
  return items.flatMap((item, i) => {
    const p = prefix === '' ? `${i + 1}` : `${prefix}.${i + 1}`;
    return [p, ...paths(item.children, p)];
  });
}

const NEXT: Record<TaskStatus, TaskStatus> = {
  pending: 'in_progress',
  in_progress: 'completed',
  completed: 'blocked',
  blocked: 'pending',
};
const MARK: Record<TaskStatus, string[]> = {
  pending: [' '],
  in_progress: ['~', '/'],
  completed: ['x', 'X'],
  blocked: ['!'],
};

describe('round trip: Planwise updates a tracker VT Code wrote (rules §4)', () => {
  for (const f of trackerFiles()) {
    it(`${f.name}: updating one item's status changes only status marks, byte for byte elsewhere`, () => {
      const flavour = f.parser === 'mirror' ? 'mirror' : 'plan';
      assert.equal(
        writeTrackerText(f.text, parseTrackerFile(f.text), flavour),
        f.text,
        'an unchanged tracker writes the same bytes',
      );
      const before = parseTrackerFile(f.text);
      const beforeNodes = nodesOf(before.items);
      for (const [k, path] of paths(before.items).entries()) {
        const node = beforeNodes[k] as VtNode;
        const status = NEXT[node.status];
        const r = applyTrackerAction(before, { action: 'update', index_path: path, status });
        assert.ok(r.ok, r.ok ? '' : r.error);
        const text = writeTrackerText(f.text, r.tracker, flavour);
        const afterNodes = vtcodeRead(text, f.parser).nodes;
        // Every item is still there, with its metadata; statuses are the updated tracker's.
        assert.deepEqual(
          afterNodes.map(({ status: _, ...rest }) => rest),
          beforeNodes.map(({ status: _, ...rest }) => rest),
        );
        assert.deepEqual(
          afterNodes.map((n) => n.status),
          nodesOf(r.tracker.items).map((n) => n.status),
        );
        // The only bytes that changed are the marks of items whose status changed.
        const changed = changedOffsets(f.text, text);
        const statusChanges = afterNodes.filter((n, i) => n.status !== (beforeNodes[i] as VtNode).status).length;
        assert.equal(changed.length, statusChanges, `${f.name} ${path}`);
        for (const at of changed) {
          assert.equal(text.slice(at - 1, at + 3).replace(/^\[[ ~/xX!]\] $/, 'mark'), 'mark', `${f.name} ${path}`);
        }
        if (!path.includes('.') && (before.items[Number(path) - 1] as TaskItem).children.length === 0) {
          assert.equal(changed.length, 1, `${f.name} ${path}: a top-level item without children changes one byte`);
          assert.ok(MARK[status].includes(text[changed[0] as number] as string));
        }
      }
    });
  }
});

describe('Planwise adds, rewords and re-checks items in a tracker VT Code wrote', () => {
  for (const f of trackerFiles()) {
    it(`${f.name}: both tools read the new tracker; every other line stays, in order`, () => {
      const flavour = f.parser === 'mirror' ? 'mirror' : 'plan';
      let t = parseTrackerFile(f.text);
      for (const action of [
        { action: 'add', description: 'Added by Planwise', verify: ['npm test', 'npm run lint'] },
        { action: 'add', parent_index_path: '1', description: 'A sub-step', files: ['src/a.ts'] },
        { action: 'update', index: 1, description: 'Reworded first item', verify: ['cargo check', 'cargo test'] },
      ]) {
        const r = applyTrackerAction(t, action);
        assert.ok(r.ok, r.ok ? '' : r.error);
        t = r.tracker;
      }
      const text = writeTrackerText(f.text, t, flavour);
      assert.deepEqual(parseTrackerFile(text), t, f.name);
      const vt = vtcodeRead(text, f.parser).nodes;
      assert.deepEqual(vt, nodesOf(t.items), f.name);
      // What Planwise did not change is there, in its order: all but item 1's task line and checks.
      const original = f.text.split('\n');
      const isTask = (l: string) => /^\s*[-*+] \[.\] /.test(l);
      const firstLine = original.findIndex(isTask);
      const nextTask = original.findIndex((l, i) => i > firstLine && isTask(l));
      const ownCheck = (l: string, i: number) =>
        i > firstLine && (nextTask < 0 || i < nextTask) && /^\s+(verify:|[-*+] )/.test(l);
      const untouched = original.filter((l, i) => i !== firstLine && !ownCheck(l, i));
      const lines = text.split('\n');
      let at = 0;
      for (const line of untouched) {
        at = lines.indexOf(line, at);
        assert.ok(at >= 0, `${f.name}: kept ${JSON.stringify(line)}`);
        at++;
      }
    });
  }
});

describe('plan store: a plan VT Code persisted, updated by Planwise', () => {
  let root: string;
  let store: PlanStore;
  const plans = () => join(root, '.vtcode/plans');
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'planwise-interop-'));
    mkdirSync(join(root, '.vtcode'), { recursive: true });
    cpSync(join(data, 'vtcode-persisted'), plans(), { recursive: true });
    rmSync(join(plans(), 'EXPECTED.tsv'));
    const reader = new NodeWorkspaceReader([root]);
    root = reader.roots[0] as string;
    store = new PlanStore(reader, new NodeWorkspaceWriter(), { root, now: () => 1_764_900_000_000 });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('loads each plan with the tracker VT Code reads from its sidecar', async () => {
    for (const row of expected('vtcode-persisted')) {
      const loaded = await store.load(row.file);
      assert.equal(loaded.trackerSource, 'sidecar', row.file);
      const vt = vtcodeRead(read(join(plans(), row.file.replace(/\.md$/, '.tasks.md'))), 'sidecar');
      assert.deepEqual(nodesOf(loaded.tracker?.items ?? []), vt.nodes, row.file);
      assert.equal(loaded.tracker?.title, vt.title);
    }
  });

  it('an update of one status rewrites one byte of the sidecar and one of the plan file', async () => {
    for (const row of expected('vtcode-persisted')) {
      const stem = row.file.replace(/\.md$/, '');
      const planFile = join(plans(), row.file);
      const sidecarFile = join(plans(), `${stem}.tasks.md`);
      const [plan0, sidecar0] = [read(planFile), read(sidecarFile)];
      const loaded = await store.load(stem);
      const first = loaded.tracker?.items[0] as TaskItem;
      const r = applyTrackerAction(loaded.tracker as Tracker, {
        action: 'update',
        index: 1,
        status: NEXT[first.status],
      });
      assert.ok(r.ok);
      await store.saveTracker(stem, r.tracker);
      const [plan1, sidecar1] = [read(planFile), read(sidecarFile)];
      assert.equal(changedOffsets(sidecar0, sidecar1).length, 1, row.file);
      assert.equal(changedOffsets(plan0, plan1).length, 1, row.file);
      assert.deepEqual((await store.load(stem)).tracker, r.tracker);
      const mirror = read(join(root, '.vtcode/tasks/current_task.md'));
      assert.deepEqual(
        vtcodeRead(mirror, 'mirror').nodes,
        vtcodeRead(sidecar1, 'sidecar').nodes,
        'the global mirror holds the same checklist',
      );
    }
  });

  it('keeps heading, outcome:, the verify: block, the nested [!] child and unknown lines of brisk-otter', async () => {
    const sidecarFile = join(plans(), '1764806400000-brisk-otter.tasks.md');
    const extra = `${read(sidecarFile)}\n## Notes\n\nkept as VT Code wrote it\n`.replace(
      '  files: src/parser.rs\n  outcome:',
      '  files: src/parser.rs\n  note: a line neither tool reads\n  outcome:',
    );
    writeFileSync(sidecarFile, extra);
    const loaded = await store.load('1764806400000-brisk-otter');
    const r = applyTrackerAction(loaded.tracker as Tracker, {
      action: 'update',
      index_path: '2.1',
      status: 'completed',
    });
    assert.ok(r.ok);
    await store.saveTracker('1764806400000-brisk-otter', r.tracker);
    const after = read(sidecarFile);
    assert.equal(
      after,
      extra
        .replace('- [~] Add single-byte regression test', '- [x] Add single-byte regression test')
        .replace('  - [!] Reproduce', '  - [x] Reproduce'),
      'the child and its parent (now all done) change their marks; nothing else changes',
    );
  });
});

describe('Planwise writes trackers VT Code reads (rules §4)', () => {
  let root: string;
  let store: PlanStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'planwise-interop-'));
    const reader = new NodeWorkspaceReader([root]);
    root = reader.roots[0] as string;
    store = new PlanStore(reader, new NodeWorkspaceWriter(), { root, now: () => 1_764_900_000_000 });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const plan = [
    '# Retry uploads',
    '',
    '## Summary',
    '',
    'Uploads fail on a flaky network; retry them with backoff.',
    '',
    '## Implementation Steps',
    '',
    '1. Add the retry loop -> files: [src/upload.ts, src/retry.ts] -> verify: [npm test, npm run lint]',
    '2. Document the backoff -> files: [README.md] -> verify: [npx prettier --check README.md]',
    '3. Log each retry -> files: [src/log.ts] -> verify: [npm test]',
    '',
    '## Test Cases and Validation',
    '',
    '- `npm test` covers the retry loop',
    '',
    '## Assumptions and Defaults',
    '',
    '- the backoff caps at 30 seconds',
    '',
  ].join('\n');

  function act(t: Tracker, action: unknown): Tracker {
    const r = applyTrackerAction(t, action);
    assert.ok(r.ok, r.ok ? '' : r.error);
    return r.tracker;
  }

  it('the sidecar, the block in the plan and the global mirror give VT Code every item, status and check', async () => {
    assert.equal(validatePlan(plan).valid, true, JSON.stringify(validatePlan(plan).errors));
    const saved = await store.save(plan, { name: 'retry' });
    assert.ok(saved.ok);
    let t = trackerFromPlan(saved.summary);
    t = act(t, { action: 'add', parent_index_path: '3', items: ['Pick the log level', 'Write the line'] });
    t = act(t, { action: 'update', index: 1, status: 'completed' });
    t = act(t, { action: 'update', index: 2, status: 'in_progress' });
    t = act(t, { action: 'update', index_path: '3.1', status: 'blocked' });
    await store.saveTracker('retry', t);

    const want = nodesOf(t.items);
    assert.deepEqual(
      want.map((n) => [n.depth, n.status]),
      [
        [0, 'completed'],
        [0, 'in_progress'],
        [0, 'blocked'],
        [1, 'blocked'],
        [1, 'pending'],
      ],
    );
    assert.deepEqual(want[0]?.verify, ['npm test', 'npm run lint']);
    const sidecar = read(join(root, '.vtcode/plans/retry.tasks.md'));
    const block = extractTrackerBlock(read(saved.file)) ?? '';
    for (const [name, text] of [
      ['sidecar', sidecar],
      ['block', block],
    ] as const) {
      const vt = vtcodeRead(text, 'sidecar');
      assert.equal(vt.title, 'Retry uploads', name);
      assert.deepEqual(vt.nodes, want, name);
    }
    assert.equal(sidecar.match(/verify:/g)?.length, 3, 'one verify: per item that has checks, never two');
    const mirror = read(join(root, '.vtcode/tasks/current_task.md'));
    assert.match(mirror, /^- \[\/\] Document the backoff$/m, 'the mirror marks in progress [/], as VT Code does');
    assert.deepEqual(vtcodeRead(mirror, 'mirror').nodes, want);
    assert.equal(validatePlan(read(saved.file)).valid, true, 'the plan with its block stays valid');
  });

  it("a tracker an older Planwise wrote (no section heading) is read whole, and gets VT Code's heading on the next write", async () => {
    const saved = await store.save(plan, { name: 'retry' });
    assert.ok(saved.ok);
    const older =
      '# Retry uploads\n\n- [x] Add the retry loop\n  files: src/upload.ts, src/retry.ts\n  verify: npm test\n  verify: npm run lint\n- [~] Document the backoff\n- [ ] Log each retry\n';
    const sidecarFile = join(root, '.vtcode/plans/retry.tasks.md');
    writeFileSync(sidecarFile, older);
    writeFileSync(
      saved.file,
      `${read(saved.file)}\n<!-- vtcode:plan-tracker:start -->\n## Task tracker: Retry uploads\n\n${older.slice('# Retry uploads\n\n'.length)}<!-- vtcode:plan-tracker:end -->\n`,
    );
    assert.deepEqual(vtcodeRead(older, 'sidecar').nodes, [], 'VT Code reads no item without the heading');
    const loaded = await store.load('retry');
    assert.deepEqual(
      nodesOf(loaded.tracker?.items ?? []).map((n) => [n.description, n.status, n.verify.length]),
      [
        ['Add the retry loop', 'completed', 2],
        ['Document the backoff', 'in_progress', 0],
        ['Log each retry', 'pending', 0],
      ],
    );
    const t = act(loaded.tracker as Tracker, { action: 'update', index: 3, status: 'in_progress' });
    await store.saveTracker('retry', t);
    for (const text of [read(sidecarFile), extractTrackerBlock(read(saved.file)) ?? '']) {
      const vt = vtcodeRead(text, 'sidecar');
      assert.equal(vt.title, 'Retry uploads');
      assert.deepEqual(vt.nodes, nodesOf(t.items));
      assert.equal(text.match(/verify:/g)?.length, 1, 'the two checks now sit in one verify: block');
    }
  });
});

describe('planwise plans over the plans VT Code persisted', () => {
  it('lists all five as valid, titled, with the step counts, items and statuses VT Code reads', async () => {
    const root = mkdtempSync(join(tmpdir(), 'planwise-interop-'));
    try {
      mkdirSync(join(root, '.vtcode'), { recursive: true });
      cpSync(join(data, 'vtcode-persisted'), join(root, '.vtcode/plans'), { recursive: true });
      const { main } = await import('../../src/cli/main');
      const { PassThrough } = await import('node:stream');
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      (globalThis as { PLANWISE_VERSION?: string }).PLANWISE_VERSION ??= '0.0.0-test';
      const code = await main(['plans', '--json', '--workspace', root], {
        stdout,
        stderr: new PassThrough(),
        stdin: new PassThrough(),
        env: {},
        cwd: root,
      });
      assert.equal(code, 0);
      const listed = JSON.parse(out) as {
        stem: string;
        valid: boolean;
        title: string;
        steps: number;
        tracker: Tracker | null;
      }[];
      const rows = expected('vtcode-persisted');
      assert.deepEqual(listed.map((p) => `${p.stem}.md`).sort(), rows.map((r) => r.file).sort());
      for (const row of rows) {
        const p = listed.find((l) => `${l.stem}.md` === row.file);
        assert.equal(p?.valid, row['vtcode'] === 'valid', row.file);
        assert.equal(p?.steps, Number(row['vtcode_steps']), row.file);
        assert.ok(p?.title, `${row.file} has a title`);
        const vt = vtcodeRead(read(join(data, 'vtcode-persisted', row.file.replace(/\.md$/, '.tasks.md'))), 'sidecar');
        assert.deepEqual(nodesOf(p?.tracker?.items ?? []), vt.nodes, row.file);
        assert.deepEqual(vtcodeCounts(vt.nodes), countsOf(row));
      }
      assert.deepEqual(readdirSync(join(root, '.vtcode')), ['plans'], 'listing writes nothing');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
