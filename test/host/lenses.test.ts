import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validatePlan, type VerifyRecord } from '../../src/core/index';
import { PlanStore } from '../../src/core/plan/store';
import { trackerFromPlan } from '../../src/core/plan/tracker';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { formatAgo, planLenses, resultLabel, type LensInput, type LensSpec } from '../../src/host/codelens/lenses';
import { PlanFiles } from '../../src/host/session/planFiles';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const FIXTURES = resolve(__dirname, '../fixtures/plans/valid');
const STEP_LINE = /^\s*(?:[-*]\s+)?(?:\*\*)?(?:step\s+)?\d+[.):]/i;

function input(markdown: string, patch: Partial<LensInput> = {}): LensInput {
  return {
    markdown,
    verdict: validatePlan(markdown),
    trusted: true,
    now: 1_000_000,
    resultOf: () => undefined,
    gateOpen: false,
    revisions: 1,
    ...patch,
  };
}

function record(patch: Partial<VerifyRecord>): VerifyRecord {
  return {
    planFile: '/p.md',
    step: '1',
    entry: 'x',
    kind: 'command',
    command: 'x',
    status: 'failed',
    exitCode: null,
    durationMs: 0,
    output: '',
    at: 0,
    origin: 'person',
    ...patch,
  };
}

const verifyLenses = (lenses: LensSpec[]) => lenses.filter((l) => l.action.kind === 'runVerify');

describe('plan CodeLenses on real plan files', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace();
  });
  afterEach(() => ws.cleanup());

  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith('.md'))) {
    it(`puts every verify lens on a step line of ${name}, and only commands that appear in that step`, () => {
      const file = ws.write(`.vtcode/plans/${name}`, readFileSync(join(FIXTURES, name)));
      const markdown = readFileSync(file, 'utf8');
      const lines = markdown.split(/\r?\n/);
      const lenses = planLenses(input(markdown));
      for (const lens of verifyLenses(lenses)) {
        const text = lines[lens.line]!;
        assert.match(text, STEP_LINE, `lens "${lens.title}" sits on "${text}"`);
        // The command is written in this step: on its line or its continuation lines before the next step.
        let end = lens.line + 1;
        while (end < lines.length && !STEP_LINE.test(lines[end]!) && !/^#/.test(lines[end]!)) end++;
        const block = lines.slice(lens.line, end).join('\n');
        const entry = lens.action.kind === 'runVerify' ? lens.action.entry : '';
        const command = lens.title.replace(/^▶ /, '');
        assert.ok(block.includes(command), `"${command}" is not in step block:\n${block}`);
        assert.ok(entry.includes(command), `the lens runs "${command}", which entry "${entry}" holds`);
      }
      const hasRunAll = lenses.some((l) => l.action.kind === 'runAllVerify');
      assert.equal(hasRunAll, verifyLenses(lenses).length > 0);
    });
  }

  it('places each lens above its own step in a multi-step plan with CRLF endings', () => {
    const markdown = [
      '# Retry uploads',
      '',
      '## Summary',
      '',
      'Retry uploads.',
      '',
      '## Implementation Steps',
      '',
      '1. Add a retry loop -> files: [src/upload.ts] -> verify: [npm test, npx tsc --noEmit]',
      '2. Log attempts -> files: [src/log.ts]',
      '   verify: `npm run lint`',
      '3. Document it -> files: [README.md] -> verify: confirm the README shows the retry section',
      '',
      '## Test Cases and Validation',
      '',
      '- tests: `npm test`',
      '',
      '## Assumptions and Defaults',
      '',
      '- three attempts',
    ].join('\r\n');
    const file = ws.write('.vtcode/plans/retry.md', markdown);
    const text = readFileSync(file, 'utf8');
    const lenses = planLenses(input(text, { verdict: validatePlan(text), stepStatus: () => 'in_progress' }));
    assert.deepEqual(
      lenses.map((l) => [l.line, l.title]),
      [
        [0, '$(run-all) Run all verify'],
        [8, '▶ npm test'],
        [8, '▶ npx tsc --noEmit'],
        [9, '▶ npm run lint'],
        [11, '$(eye) Mark checked: confirm the README shows the retry section'],
      ],
    );
    assert.deepEqual(lenses[1]!.action, { kind: 'runVerify', step: '1', entry: 'npm test' });
    assert.deepEqual(lenses[3]!.action, { kind: 'runVerify', step: '2', entry: 'npm run lint' });
    assert.deepEqual(lenses[4]!.action, {
      kind: 'markChecked',
      step: '3',
      entry: 'confirm the README shows the retry section',
    });
  });

  it('shows the last result and when it ran', () => {
    const markdown = readFileSync(join(FIXTURES, 'env-assignment-and-script.md'), 'utf8');
    const now = 10 * 60_000;
    const lenses = planLenses(
      input(markdown, {
        now,
        resultOf: (step, entry) =>
          entry === 'CI=1 npm test'
            ? record({ entry, status: 'passed', exitCode: 0, at: now - 2 * 60_000 })
            : entry === './scripts/check.sh'
              ? record({ entry, status: 'failed', exitCode: 1, at: now - 5_000 })
              : undefined,
      }),
    );
    assert.deepEqual(
      verifyLenses(lenses).map((l) => l.title),
      ['▶ CI=1 npm test  ✓ passed 2 min ago', '▶ ./scripts/check.sh  ✗ exit 1 · just now'],
    );
  });

  it('offers Approve and Revise only while this plan waits, and Compare once there is a previous revision', () => {
    const markdown = readFileSync(join(FIXTURES, 'env-assignment-and-script.md'), 'utf8');
    const tops = (patch: Partial<LensInput>) =>
      planLenses(input(markdown, patch))
        .filter((l) => l.line === 0)
        .map((l) => l.action.kind);
    assert.deepEqual(tops({}), ['runAllVerify']);
    assert.deepEqual(tops({ gateOpen: true, revisions: 2 }), ['runAllVerify', 'approve', 'revise', 'compare']);
  });

  it('explains in Restricted Mode why verify is off, on the top lens and on each step', () => {
    const markdown = readFileSync(join(FIXTURES, 'env-assignment-and-script.md'), 'utf8');
    const lenses = planLenses(input(markdown, { trusted: false }));
    assert.equal(verifyLenses(lenses).length, 0);
    assert.ok(lenses.length >= 3);
    for (const l of lenses) {
      assert.equal(l.action.kind, 'manageTrust');
      assert.match(l.title, /Restricted Mode/);
    }
  });

  it('words results and ages', () => {
    assert.equal(formatAgo(3_000), 'just now');
    assert.equal(formatAgo(45_000), '45 s ago');
    assert.equal(formatAgo(2 * 60_000), '2 min ago');
    assert.equal(formatAgo(3 * 3_600_000), '3 h ago');
    assert.equal(formatAgo(50 * 3_600_000), '2 d ago');
    assert.equal(resultLabel(record({ status: 'timed_out' }), 120_000), '✗ timed out · 2 min ago');
    assert.equal(resultLabel(record({ status: 'cancelled' }), 0), '✗ cancelled · just now');
    assert.equal(resultLabel(record({ status: 'failed' }), 0), '✗ did not run · just now');
    assert.equal(resultLabel(record({ status: 'running' }), 0), '$(sync~spin) running…');
    assert.equal(resultLabel(record({ status: 'checked', kind: 'check' }), 0), '✓ checked just now');
  });
});

describe('plan files on disk', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace();
  });
  afterEach(() => ws.cleanup());

  const plan = readFileSync(join(FIXTURES, 'env-assignment-and-script.md'), 'utf8');

  it('knows plan files, the newest plan, revisions and what to compare', async () => {
    let clock = 1_700_000_000_000;
    const store = new PlanStore(ws.reader, new NodeWorkspaceWriter(), { root: ws.root, now: () => clock++ });
    const files = new PlanFiles(ws.reader, () => '.vtcode/plans');
    assert.equal(await files.newest(), undefined);
    const first = await store.save(plan, { name: 'retry' });
    assert.ok(first.ok);
    assert.equal(files.isPlanFile(first.file), true);
    assert.equal(files.isPlanFile(join(ws.root, '.vtcode/plans/retry.tasks.md')), false);
    assert.equal(files.isPlanFile(ws.path('docs/retry.md')), false);
    assert.equal(await files.newest(), first.file);
    assert.equal(await files.comparison(first.file), undefined, 'one revision: nothing to compare');

    const second = await store.save(plan.replace('Run the slow suite in CI', 'Run the slow suite nightly'), {
      stem: 'retry',
    });
    assert.ok(second.ok);
    assert.equal((await files.revisions(first.file)).length, 2);
    const cmp = await files.comparison(first.file);
    assert.ok(cmp);
    assert.match(cmp.left, /retry\.history[\\/]001\.md$/);
    assert.equal(cmp.right, first.file);
    assert.match(cmp.title, /revision 1 ↔ 2/);

    ws.write('.vtcode/plans/retry.md', readFileSync(first.file, 'utf8') + '\nA hand-written note.\n');
    const edited = await files.comparison(first.file);
    assert.match(edited!.left, /002\.md$/);
    assert.match(edited!.title, /revision 2 ↔ current file/);
  });

  it('ignores tracker progress when comparing a plan with its latest revision', async () => {
    const store = new PlanStore(ws.reader, new NodeWorkspaceWriter(), { root: ws.root, now: () => 1 });
    const files = new PlanFiles(ws.reader, () => '.vtcode/plans');
    const saved = await store.save(plan, { name: 'retry' });
    assert.ok(saved.ok);
    await store.save(plan.replace('slow suite', 'slower suite'), { stem: 'retry' });
    const loaded = await store.load('retry');
    await store.saveTracker('retry', trackerFromPlan(loaded.summary));
    assert.match(
      readFileSync(saved.file, 'utf8'),
      /<!-- vtcode:plan-tracker:start -->\n# .+\n\n## Plan of Work\n/,
      'the plan file now embeds the tracker',
    );
    const cmp = await files.comparison(saved.file);
    assert.match(cmp!.title, /revision 1 ↔ 2/, 'the embedded tracker block is not a plan change');
  });

  it('resolves panel paths inside the workspace only', () => {
    const files = new PlanFiles(ws.reader, () => '.vtcode/plans');
    assert.equal(files.resolveInWorkspace('src/a.ts'), ws.path('src/a.ts'));
    assert.equal(files.resolveInWorkspace(ws.path('b.ts')), ws.path('b.ts'));
    assert.equal(files.resolveInWorkspace('../outside/secret.txt'), undefined);
    assert.equal(files.resolveInWorkspace('/etc/passwd'), undefined);
    assert.equal(files.relative(ws.path('src/a.ts')), 'src/a.ts');
    assert.equal(files.relative('/elsewhere/x.ts'), '/elsewhere/x.ts');
  });

  it('offers Mark checked only once the build started the step: before, the check says it waits for the build', () => {
    const withCheck = [
      '# Greet',
      '',
      '## Summary',
      '',
      'Add a greeting.',
      '',
      '## Implementation Steps',
      '',
      '1. Add greet -> files: [src/greet.js] -> verify: [npm test, confirm the page shows the greeting]',
      '',
      '## Test Cases and Validation',
      '',
      '- tests: `npm test`',
      '',
      '## Assumptions and Defaults',
      '',
      '- English only',
      '',
    ].join('\n');
    const titles = (patch: Partial<LensInput>) =>
      planLenses(input(withCheck, { verdict: validatePlan(withCheck), ...patch }))
        .filter((l) => l.title.includes('confirm the page shows the greeting'))
        .map((l) => [l.title, l.action.kind]);
    assert.deepEqual(titles({}), [['$(eye) Check after the build: confirm the page shows the greeting', 'none']]);
    assert.deepEqual(titles({ stepStatus: () => 'pending' }), [
      ['$(eye) Check after the build: confirm the page shows the greeting', 'none'],
    ]);
    assert.deepEqual(titles({ stepStatus: () => 'in_progress' }), [
      ['$(eye) Mark checked: confirm the page shows the greeting', 'markChecked'],
    ]);
  });
});
