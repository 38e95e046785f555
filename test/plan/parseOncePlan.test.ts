/**
 * A plan text is validated once per revision: from the model's stream through the gate, the
 * approval and a two-step build, every reader (store, tracker, gate card, build scope, verify
 * gate, report) reads the workspace's one parse of it.
 */
import assert from 'node:assert/strict';
import { validationCount } from '../../src/core/plan/validator';
import { sse } from '../support/scriptedServer';
import { planResponse, startHarness } from '../support/sessionHarness';

const ok = 'node -e "process.exit(0)"';

function twoStepPlan(title: string, extra = ''): string {
  return `# ${title}

## Summary

Add two small modules so callers get a greeting and a farewell.${extra}

## Implementation Steps

1. Add the greet module -> files: [src/greet.js] -> verify: [${ok}]
2. Add the bye module -> files: [src/bye.js] -> verify: [${ok}]

## Test Cases and Validation

- tests: \`${ok}\`

## Assumptions and Defaults

- the words are English only
`;
}

describe('a plan is validated once per revision', function () {
  this.timeout(60_000);

  it('from the stream through approval and a two-step build: one validation for the one text', async () => {
    const h = await startHarness(
      [
        sse.textTurn(planResponse(twoStepPlan('Greet and bye'))),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.js', content: 'exports.greet = 1;\n' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 2, status: 'in_progress' } }]),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/bye.js', content: 'exports.bye = 1;\n' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 2, status: 'completed' } }]),
        sse.textTurn('Both modules added; both verify commands passed.'),
      ],
      {
        files: { 'src/.keep': '' },
        approve: () => ({ decision: 'execute' }),
        approveCommand: () => true,
        config: { buildAllowList: ['node -e *'] },
      },
    );
    try {
      const before = validationCount.runs;
      let completed: { complete: boolean } | undefined;
      h.session.bus.on((e) => {
        if (e.type === 'plan.execution.completed') completed = e;
      });
      await h.session.start('add greet and bye');
      assert.ok(completed, 'the build ran to its report');
      assert.equal(completed.complete, true, 'both steps done and verified');
      assert.equal(validationCount.runs - before, 1, 'one text, one validation');
    } finally {
      await h.close();
    }
  });

  it('a revision asked for at the gate is a second text: two validations in all', async () => {
    let decisions = 0;
    const h = await startHarness(
      [
        sse.textTurn(planResponse(twoStepPlan('Greet and bye'))),
        sse.textTurn(planResponse(twoStepPlan('Greet and bye', ' Both export one constant.'))),
      ],
      {
        files: { 'src/.keep': '' },
        approve: () =>
          decisions++ === 0 ? { decision: 'revise', feedback: 'say what they export' } : { decision: 'cancel' },
      },
    );
    try {
      const before = validationCount.runs;
      await h.session.start('add greet and bye');
      assert.equal(decisions, 2, 'the gate was shown for both revisions');
      assert.equal(validationCount.runs - before, 2);
    } finally {
      await h.close();
    }
  });
});
