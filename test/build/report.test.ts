import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest, planRevert } from '../../src/core/build/revert';
import { FileCheckpointStore } from '../../src/node/fileCheckpointStore';
import { applyRevertOnDisk, readOnDisk } from '../../src/node/revertFiles';
import { planResponse, startHarness, type Harness } from '../support/sessionHarness';
import { sse } from '../support/scriptedServer';

const PLAN = `# Greeting and docs

## Summary

Add a greeting helper and document it.

## Implementation Steps

1. Add the greet function -> files: [src/greet.ts] -> verify: [node -e "process.exit(1)"]
2. Document the helper -> files: [docs/guide.md] -> verify: [node -e "process.exit(0)"]

## Test Cases and Validation

- tests: \`node -e "process.exit(0)"\`

## Assumptions and Defaults

- English only
`;

describe('the closing audit of a build (a real session, scripted model)', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('lists exactly the out-of-scope file, the failed verify and the untouched planned file', async () => {
    const storage = mkdtempSync(join(tmpdir(), 'planwise-ckpt-'));
    h = await startHarness(
      [
        sse.textTurn(planResponse(PLAN)),
        sse.toolTurn([
          { name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'in_progress' } },
          { name: 'write_file', args: { path: 'src/greet.ts', content: 'export const greet = (n) => `hi ${n}`;\n' } },
          { name: 'edit_file', args: { path: 'README.md', old_text: '# demo', new_text: '# demo\n\nGreets.' } },
          { name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } },
        ]),
        sse.toolTurn([
          { name: 'task_tracker', args: { action: 'update', index_path: '2', status: 'in_progress' } },
          { name: 'task_tracker', args: { action: 'update', index_path: '2', status: 'completed' } },
        ]),
        sse.textTurn('Done: greet added; its verify fails.'),
      ],
      {
        approve: () => ({ decision: 'execute' }),
        config: { buildScope: 'record', buildAllowList: ['node -e *'] },
        checkpointsDir: storage,
      },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'completed');
    const [event] = h.eventsOf('plan.execution.completed');
    assert.ok(event, 'plan.execution.completed was emitted');
    const report = event.report;
    assert.equal(event.outcome, 'done');
    assert.equal(event.complete, false);
    assert.deepEqual(
      report.outOfScope.map((d) => [d.path, d.action, d.allowedBy, d.step]),
      [['README.md', 'edit', 'recorded (scope mode record)', '1']],
    );
    assert.deepEqual(report.untouched, ['docs/guide.md']);
    // The figures the panel's final card shows, counted once by the engine.
    assert.deepEqual(report.counts, {
      stepsDone: 1,
      stepsTotal: 2,
      filesChanged: 2,
      filesOutOfScope: 1,
      verifyPassed: 1,
      verifyFailed: 1,
      verifyChecked: 0,
      verifyNotRun: 0,
      verifyTotal: 2,
    });
    assert.deepEqual(
      report.changed.map((f) => [f.path, f.outOfScope === true]),
      [
        ['src/greet.ts', false],
        ['README.md', true],
      ],
    );
    assert.deepEqual(report.awaiting, []);
    assert.equal(event.session, h.session.id);
    assert.deepEqual(event.checkpoints, ['2'], 'Revert to step N is offered for the step that completed');
    assert.deepEqual(
      report.incomplete.map((s) => [s.path, s.reason]),
      [['1', 'verify `node -e "process.exit(1)"` failed (exit 1)']],
    );
    assert.deepEqual(
      report.steps.map((s) => [
        s.path,
        s.status,
        s.planned,
        s.changed.map((f) => `${f.path} +${f.added} -${f.removed}`),
      ]),
      [
        ['1', 'in_progress', ['src/greet.ts'], ['src/greet.ts +1 -0', 'README.md +2 -0']],
        ['2', 'completed', ['docs/guide.md'], []],
      ],
    );
    assert.deepEqual(
      report.steps.map((s) => s.verify.map((v) => [v.status, v.exitCode])),
      [[['failed', 1]], [['passed', 0]]],
    );
    // The seed's outcome summary is the first paragraph; the file sits next to the plan.
    const planFile = h.session.planFile!;
    const reportFile = planFile.replace(/\.md$/, '.report.md');
    assert.equal(event.report_file, reportFile);
    const md = readFileSync(reportFile, 'utf8');
    assert.equal(md, event.markdown);
    const firstParagraph = md.split('\n\n')[1];
    assert.equal(
      firstParagraph,
      'Changed 2 files (+3 −0): src/greet.ts, README.md. Verification: 1 passed, 1 failed (of 2). ' +
        'Remaining blockers: step 1 verify `node -e "process.exit(1)"` failed (exit 1).',
    );
    assert.match(md, /## Out-of-scope changes\n\n- README\.md \(edit, during step 1\): allowed by recorded/);
    assert.match(md, /## Planned but never touched\n\n- docs\/guide\.md\n/);
    assert.match(md, /## Steps left incomplete\n\n- 1\. Add the greet function: verify/);
    assert.equal(stop.kind === 'completed' && stop.report?.complete, false);

    // Checkpoints: before the first write, and at step 2's completion; Revert Build restores the tree.
    const store = new FileCheckpointStore(storage, h.session.id);
    const manifest = parseManifest(await store.readManifest())!;
    assert.deepEqual(Object.keys(manifest.baseline), ['src/greet.ts', 'README.md']);
    assert.deepEqual(
      manifest.checkpoints.map((c) => c.step),
      ['2'],
      'step 1 never completed (its verify failed), step 2 did',
    );
    const r = await planRevert(manifest, store, readOnDisk);
    assert.ok(r.ok);
    await applyRevertOnDisk(r.plan.items);
    assert.equal(readFileSync(h.ws.path('README.md'), 'utf8'), '# demo\n');
    assert.equal(existsSync(h.ws.path('src/greet.ts')), false);
  });

  it('strict scope in a session: the out-of-scope write is refused and the model is told to propose a revised plan', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(PLAN)),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/other.ts', content: 'x\n' } }]),
        sse.textTurn('I will stay in scope.'),
      ],
      { approve: () => ({ decision: 'execute' }), config: { buildScope: 'strict' } },
    );
    await h.session.start('plan');
    const tool = h.server.requests[2]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(tool.content, /outside the approved plan's scope .*propose a revised plan/s);
    assert.equal(existsSync(h.ws.path('src/other.ts')), false);
    const [event] = h.eventsOf('plan.execution.completed');
    assert.deepEqual(event?.report.outOfScope, []);
  });

  it('ask in a session: "stop and replan" ends the build and opens planning with the reason', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(PLAN)),
        sse.toolTurn([
          { name: 'write_file', args: { path: 'src/other.ts', content: 'x\n' } },
          { name: 'write_file', args: { path: 'src/greet.ts', content: 'y\n' } },
        ]),
        sse.textTurn('What should change in the plan?'),
      ],
      {
        approve: () => ({ decision: 'execute' }),
        config: { buildScope: 'ask' },
        approveScope: () => 'replan',
      },
    );
    await h.session.start('plan');
    assert.deepEqual(h.people.scopeRequests, [
      { path: 'src/other.ts', action: 'create', scope: ['src/greet.ts', 'docs/guide.md'] },
    ]);
    const [event] = h.eventsOf('plan.execution.completed');
    assert.equal(event?.outcome, 'stopped');
    assert.match(event?.report.reason ?? '', /stopped the build to replan/);
    assert.equal(h.session.state, 'planning');
    // The turn ends at the person's choice: the rest of the batch is not run, and the model is not
    // asked for a closing reply; the next request is the planning turn's.
    assert.equal(existsSync(h.ws.path('src/greet.ts')), false);
    assert.equal(h.server.requests.length, 3);
    const planning = h.server.requests[2]!.body.messages;
    const results = planning.filter((m) => m['role'] === 'tool') as { content: string }[];
    assert.match(results.at(-1)!.content, /^Not run: the person chose to stop and replan/);
    const last = planning.at(-1) as { content: string };
    assert.match(last.content, /Return to planning: the build wanted to create src\/other\.ts/);
  });
  it('ask in a session: a shell command writes outside the scope; "stop and replan" undoes it and opens planning', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(PLAN)),
        sse.toolTurn([
          { name: 'run_command', args: { command: "sh -c 'echo x > other.ts'" } },
          { name: 'write_file', args: { path: 'src/greet.ts', content: 'y\n' } },
        ]),
        sse.textTurn('What should change in the plan?'),
      ],
      {
        approve: () => ({ decision: 'execute' }),
        config: { buildScope: 'ask' },
        approveCommand: () => true,
        approveScope: () => 'replan',
      },
    );
    await h.session.start('plan');
    assert.deepEqual(h.people.scopeRequests, [
      {
        path: 'other.ts',
        action: 'create',
        scope: ['src/greet.ts', 'docs/guide.md'],
        command: "sh -c 'echo x > other.ts'",
      },
    ]);
    assert.equal(existsSync(h.ws.path('other.ts')), false, "the command's write is undone");
    assert.equal(existsSync(h.ws.path('src/greet.ts')), false, 'the rest of the batch did not run');
    const [event] = h.eventsOf('plan.execution.completed');
    assert.equal(event?.outcome, 'stopped');
    assert.deepEqual(event?.report.outOfScope, []);
    assert.equal(h.session.state, 'planning');
    assert.equal(h.server.requests.length, 3);
    const planning = h.server.requests[2]!.body.messages;
    const results = planning.filter((m) => m['role'] === 'tool') as { content: string }[];
    assert.match(results[0]!.content, /undone: other\.ts \(created\): the person chose to stop and replan/);
    const last = planning.at(-1) as { content: string };
    assert.match(last.content, /Return to planning: `sh -c 'echo x > other\.ts'` created other\.ts/);
  });
});
