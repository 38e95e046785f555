import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  trackerFromPlan,
  trackerCounts,
  renderTrackerTree,
  renderTrackerFile,
  parseTrackerFile,
  parseItemText,
  type TaskItem,
  type TaskStatus,
  type Tracker,
} from '../../src/core/plan/tracker';
import { writeTrackerText } from '../../src/core/plan/trackerPatch';
import { validatePlan } from '../../src/core/plan/validator';
import { buildPlan } from './planBuilder';

const leaf = (
  description: string,
  status: TaskStatus = 'pending',
  files: string[] = [],
  verify: string[] = [],
): TaskItem => ({
  description,
  status,
  files,
  verify,
  children: [],
});

/** Any tracker of depth up to 3, with files, checks and outcomes: texts without quotes or marks. */
function trackerArbitrary(): fc.Arbitrary<Tracker> {
  const text = fc
    .string({ minLength: 1, maxLength: 16 })
    .map((s) => s.replace(/[\r\n]/g, ' ').trim())
    .filter((s) => s.length > 0);
  const plain = text.filter((s) => !/['"`]/.test(s) && !/^\[[ xX~/!-]\]/.test(s));
  const status = fc.constantFrom<TaskStatus>('pending', 'in_progress', 'completed', 'blocked');
  const meta = fc.uniqueArray(plain, { maxLength: 3 });
  const itemAt = (depth: number): fc.Arbitrary<TaskItem> =>
    fc
      .record({
        description: fc.constantFrom('one', 'two', 'three', 'four').chain((d) => fc.constantFrom(d, `${d} more`)),
        status,
        files: meta,
        outcome: fc.option(plain, { nil: undefined }),
        verify: meta,
        children: depth === 0 ? fc.constant<TaskItem[]>([]) : fc.array(itemAt(depth - 1), { maxLength: 3 }),
      })
      .map(({ outcome, ...r }) => (outcome === undefined ? { ...r } : { ...r, outcome }));
  return fc.record({ title: text, items: fc.array(itemAt(3), { maxLength: 4 }) }).map((t) => ({ ...t }));
}

describe('tracker: item text and plans (rules §5)', () => {
  it('stores "Action -> files: a, b -> verify: npm test" as a description with structured files and verify', () => {
    assert.deepEqual(parseItemText('Action -> files: a, b -> verify: npm test'), {
      description: 'Action',
      files: ['a', 'b'],
      verify: ['npm test'],
    });
  });

  it('splits bracket lists, drops duplicates and outcome segments, and accepts →', () => {
    assert.deepEqual(
      parseItemText(
        "Fix `parse` → files: [src/a.ts, src/a.ts] → outcome: ok → verify: [rg -n 'a,b' x.md, npm test, npm test]",
      ),
      { description: 'Fix `parse`', files: ['src/a.ts'], verify: ["rg -n 'a,b' x.md", 'npm test'] },
    );
  });

  it('builds one pending item per plan step with its files and checks, dropping duplicates', () => {
    const md = buildPlan({
      title: 'Retry uploads',
      steps: [
        '1. Add retry -> files: [src/upload.ts, src/upload.ts] -> verify: [npm test]',
        '   - **Files:** src/retry.ts',
        '   - **Verify:** npm test',
        '2. Add retry -> files: [src/upload.ts, src/retry.ts] -> verify: [npm test]',
        '3. Document it -> files: [README.md] -> verify: [npx prettier --check README.md]',
        '   - [x] write the section -> files: README.md',
        '   - [ ] link it',
      ].join('\n'),
    });
    const v = validatePlan(md);
    assert.equal(v.valid, true, JSON.stringify(v.errors));
    const t = trackerFromPlan(v.summary);
    assert.equal(t.title, 'Retry uploads');
    assert.deepEqual(t.items, [
      leaf('Add retry', 'pending', ['src/upload.ts', 'src/retry.ts'], ['npm test']),
      {
        description: 'Document it',
        status: 'in_progress',
        files: ['README.md'],
        verify: ['npx prettier --check README.md'],
        children: [leaf('write the section', 'completed', ['README.md']), leaf('link it')],
      },
    ]);
  });
});

describe('tracker: a step as the validator read it', () => {
  it('keeps prose arrows in the description and reads it back whole from the file', () => {
    const plan = [
      '# Docs',
      '',
      '## Summary',
      '',
      'Reorder the README.',
      '',
      '## Implementation Steps',
      '',
      '1. Arrange Overview -> Quick start -> Workflows; update contents -> files: [README.md] -> verify: [rg -n Overview README.md]',
      '',
      '## Test Cases and Validation',
      '',
      '- rg -n Overview README.md',
      '',
      '## Assumptions and Defaults',
      '',
      '- none',
      '',
    ].join('\n');
    const r = validatePlan(plan);
    assert.equal(r.valid, true);
    const t = trackerFromPlan(r.summary);
    assert.deepEqual(
      t.items.map((i) => [i.description, i.files, i.verify]),
      [['Arrange Overview -> Quick start -> Workflows; update contents', ['README.md'], ['rg -n Overview README.md']]],
    );
    assert.deepEqual(parseTrackerFile(renderTrackerFile(t)).items[0]?.description, t.items[0]?.description);
  });

  it('reads an unbracketed check in item text as one check, commas and all', () => {
    assert.deepEqual(parseItemText('Build -> verify: run it, then confirm it shows 3 rows').verify, [
      'run it, then confirm it shows 3 rows',
    ]);
    assert.deepEqual(parseItemText('Build -> verify: [npm test, npm run lint]').verify, ['npm test', 'npm run lint']);
  });
});

describe('tracker: counts and rendering (rules §4, §5)', () => {
  const t: Tracker = {
    title: 'Work',
    items: [
      leaf('one', 'completed', ['a.ts'], ['npm test']),
      {
        description: 'two',
        status: 'in_progress',
        files: [],
        verify: [],
        children: [leaf('two.a', 'in_progress'), { ...leaf('two.b', 'blocked'), children: [] }],
      },
      leaf('three `code` **bold**'),
    ],
  };

  it('derives counts over leaf items and percent complete', () => {
    assert.deepEqual(trackerCounts(t), { pending: 1, in_progress: 1, completed: 1, blocked: 1, total: 4, percent: 25 });
    assert.deepEqual(trackerCounts({ title: 'x', items: [] }), {
      pending: 0,
      in_progress: 0,
      completed: 0,
      blocked: 0,
      total: 0,
      percent: 0,
    });
  });

  it('renders the compact tree with the glyphs □ [-] [x] [!], parents without a glyph', () => {
    assert.equal(
      renderTrackerTree(t),
      [
        'Work (1/4 completed, 25%)',
        '├─ [x] one',
        '├─ two',
        '│  ├─ [-] two.a',
        '│  └─ [!] two.b',
        '└─ □ three `code` **bold**',
      ].join('\n'),
    );
  });

  it('renders the file format: # Title, ## Plan of Work, two-space indent, [ ] [~] [x] [!], metadata lines', () => {
    assert.equal(
      renderTrackerFile(t),
      [
        '# Work',
        '',
        '## Plan of Work',
        '',
        '- [x] one',
        '  files: a.ts',
        '  verify: npm test',
        '- [~] two',
        '  - [~] two.a',
        '  - [!] two.b',
        '- [ ] three `code` **bold**',
        '',
      ].join('\n'),
    );
  });

  it('renders the global mirror as VT Code does: no section heading, [/] for in progress, sub-items at the margin', () => {
    assert.equal(
      renderTrackerFile(t, 'mirror'),
      [
        '# Work',
        '',
        '- [x] one',
        '  files: a.ts',
        '  verify: npm test',
        '- [/] two',
        '- [/]   two.a',
        '- [!]   two.b',
        '- [ ] three `code` **bold**',
        '',
      ].join('\n'),
    );
    assert.deepEqual(parseTrackerFile(renderTrackerFile(t, 'mirror')), t);
  });

  it('writes several checks of one item as a verify: block, never as two verify: lines', () => {
    const text = renderTrackerFile({
      title: 'W',
      items: [{ ...leaf('one', 'pending', [], ['npm test', 'npm run lint']), outcome: 'lint is clean' }],
    });
    assert.ok(
      text.endsWith('- [ ] one\n  outcome: lint is clean\n  verify:\n    - npm test\n    - npm run lint\n'),
      text,
    );
    assert.equal(text.match(/verify:/g)?.length, 1);
  });

  it("reads hand-edited files by VT Code's rules: * and + bullets, [X] and [/]; [-] and tab indents are no marks", () => {
    const parsed = parseTrackerFile(
      [
        'Some intro',
        '# Mine',
        '',
        '## Plan of Work',
        '* [X] done',
        '  + [/] doing',
        '    verify: npm test',
        '\t- [ ] tabbed',
        '- [-] not an item',
        'notes here',
        '- [!] stuck',
        '',
        '## Notes',
        '- [ ] a note, not an item',
      ].join('\n'),
    );
    assert.deepEqual(parsed, {
      title: 'Mine',
      items: [
        { ...leaf('done', 'completed'), children: [leaf('doing', 'in_progress', [], ['npm test'])] },
        leaf('tabbed'),
        leaf('stuck', 'blocked'),
      ],
    });
  });

  it('reads only the plan sections of a file that has one; a file without one (older Planwise, the mirror) whole', () => {
    const sectioned =
      '# T\n\n- [x] before the section\n\n## Plan of Work\n\n- [ ] a\n\n## Context\n\n- [ ] after\n\n## Phase 2: ship\n\n- [~] b\n';
    assert.deepEqual(
      parseTrackerFile(sectioned).items.map((i) => i.description),
      ['a', 'b'],
    );
    const older = '# T\n\n- [x] a\n  files: `x,y.ts`\n  files: z.ts\n  verify: npm test\n  verify: npm run lint\n';
    assert.deepEqual(parseTrackerFile(older).items, [
      leaf('a', 'completed', ['x,y.ts', 'z.ts'], ['npm test', 'npm run lint']),
    ]);
    assert.deepEqual(
      parseTrackerFile(older.replace('# T\n', '# T\n\n## Plan of Work\n')).items,
      [leaf('a', 'completed', ['z.ts'], ['npm run lint'])],
      'under the heading a later files: or verify: line replaces the earlier one, as VT Code reads it',
    );
  });

  it('property: a tracker patched over any other tracker file reads back as itself, sidecar and mirror', () => {
    fc.assert(
      fc.property(trackerArbitrary(), trackerArbitrary(), fc.boolean(), (before, after, crlf) => {
        for (const flavour of ['plan', 'mirror'] as const) {
          let old = renderTrackerFile(before, flavour);
          if (crlf) old = old.replace(/\n/g, '\r\n');
          const patched = writeTrackerText(old, after, flavour);
          assert.deepEqual(parseTrackerFile(patched), after);
          assert.equal(writeTrackerText(patched, after, flavour), patched, 'patching again changes nothing');
          if (crlf) assert.ok(!/[^\r]\n/.test(patched), 'CRLF line endings stay CRLF');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips: render to the file format, parse back, same tree', () => {
    assert.deepEqual(parseTrackerFile(renderTrackerFile(t)), t);
  });

  it('property: any tracker of any depth round-trips through the file format', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 20 })
      .map((s) => s.replace(/[\r\n]/g, ' ').trim())
      .filter((s) => s.length > 0);
    const status = fc.constantFrom<TaskStatus>('pending', 'in_progress', 'completed', 'blocked');
    const noQuotes = text.filter((s) => !/['"`]/.test(s) && !/^\[[ xX~!-]\]/.test(s));
    const meta = fc.uniqueArray(noQuotes, { maxLength: 3 });
    const itemAt = (depth: number): fc.Arbitrary<TaskItem> =>
      fc
        .record({
          description: text,
          status,
          files: meta,
          verify: meta,
          children: depth === 0 ? fc.constant<TaskItem[]>([]) : fc.array(itemAt(depth - 1), { maxLength: 3 }),
        })
        .map((r) => ({ ...r }));
    const item = itemAt(3);
    fc.assert(
      fc.property(
        text.filter((s) => !s.endsWith('#')),
        fc.array(item, { maxLength: 4 }),
        (title, items) => {
          const tracker: Tracker = { title, items };
          assert.deepEqual(parseTrackerFile(renderTrackerFile(tracker)), tracker);
        },
      ),
      { numRuns: 300 },
    );
  });
});
