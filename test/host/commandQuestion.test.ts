/**
 * The VS Code host's side of rules §9 without VS Code: the command question ("Run Once", "Always
 * Allow…" adding an entry the person may edit to the allow-list, "Don't Run"), and the native gate's "approve
 * the plan only / the plan and these commands" choice on the real engine the host builds.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { allowListProblems, type ApprovalDecision, type CommandAnswer } from '../../src/core/index';
import type { ApprovalData } from '../../src/host/prompts/hostApprover';
import { askCommandQuestion, type CommandChoice, type CommandQuestionUi } from '../../src/host/prompts/commandQuestion';
import { runNativeGate, type NativeGateUi } from '../../src/host/prompts/nativeGate';
import { sse } from '../support/scriptedServer';
import { planResponse } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

const COMMAND = 'npm run build -- --mode production';

function questionUi(choice: CommandChoice | undefined, entry?: string) {
  const shown: string[] = [];
  const problems: (string | undefined)[] = [];
  const offered: (readonly CommandChoice[])[] = [];
  const ui: CommandQuestionUi = {
    choose: async (message, detail, choices) => {
      shown.push(message, detail);
      offered.push(choices);
      return choice;
    },
    entry: async (suggested, validate) => {
      shown.push(`entry: ${suggested}`);
      if (entry !== undefined) problems.push(validate(entry));
      return entry;
    },
  };
  return { ui, shown, problems, offered };
}

async function ask(choice: CommandChoice | undefined, entry?: string, command = COMMAND) {
  const q = questionUi(choice, entry);
  const added: string[] = [];
  const answer: CommandAnswer = await askCommandQuestion(command, "not read-only ('npm run'); no allow-list is set", {
    ui: q.ui,
    entryProblem: (e) => allowListProblems([e])[0]?.problem,
    addToAllowList: async (e) => void added.push(e),
  });
  return { answer, added, ...q };
}

describe('the command question in VS Code', () => {
  it('shows the whole command and why; "Run Once" runs it and adds nothing', async () => {
    const r = await ask('once');
    assert.equal(r.answer, true);
    assert.equal(r.shown[0], `Planwise wants to run:\n${COMMAND}`);
    assert.match(r.shown[1]!, /It needs your yes: not read-only/);
    assert.deepEqual(r.offered, [['once', 'always', 'refuse']]);
    assert.deepEqual(r.added, []);
  });

  it('"Don\'t Run" and Esc are no, and the question says the build agent is told', async () => {
    const refused = await ask('refuse');
    assert.equal(refused.answer, false);
    assert.match(
      refused.shown[1]!,
      /"Don't Run" \(or Esc\) skips it, and the build agent is told you did not allow it\./,
    );
    assert.deepEqual(refused.added, []);
    assert.equal((await ask(undefined)).answer, false);
  });

  it("a command no allow-list entry can match (a chain, a pipe) is offered Run Once and Don't Run only", async () => {
    for (const command of ['npm test && rm -rf dist', 'npm test | tee log.txt']) {
      const r = await ask('once', undefined, command);
      assert.deepEqual(r.offered, [['once', 'refuse']], command);
      assert.match(r.shown[1]!, /cannot be always allowed: only one simple command can be on the allow-list/);
      assert.doesNotMatch(r.shown[1]!, /Always Allow/);
      assert.equal(r.answer, true);
    }
  });

  it('"Always Allow…" offers the command, takes the prefix the person edits, and adds it to the allow-list', async () => {
    const r = await ask('always', 'npm run build *');
    assert.deepEqual(r.answer, { always: 'npm run build *' });
    assert.deepEqual(r.added, ['npm run build *']);
    assert.ok(r.shown.includes(`entry: ${COMMAND}`));
    assert.deepEqual(r.problems, [undefined]);
  });

  it('an entry that can never match is refused with why, and nothing is added (the command still runs once)', async () => {
    const r = await ask('always', 'npm run build && rm -rf /');
    assert.match(r.problems[0] ?? '', /only one simple command can be allow-listed/);
    assert.deepEqual(r.added, []);
    assert.equal(r.answer, true);
  });
});

const CANARY = "require('fs').writeFileSync('canary-' + process.argv[2] + '.txt', 'ran')";
const plan = (verify: string) => `# Canary plan

## Summary

Write the canary files.

## Implementation Steps

1. Write the first canary -> files: [canary.js, canary-*.txt] -> verify: [${verify}]

## Test Cases and Validation

- tests: \`${verify}\`

## Assumptions and Defaults

- the canary files are scratch
`;

describe('the native gate lists the verify commands that will ask', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const chosen of ['plan', 'commands'] as const) {
    it(`approving "${chosen === 'plan' ? 'the plan only' : 'the plan and these commands'}"`, async () => {
      const command = `node canary.js ${chosen}`;
      const asked: string[] = [];
      h = await startEngineHost(
        [
          sse.textTurn(planResponse(plan(command))),
          sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          sse.textTurn('Done.'),
        ],
        {
          files: { 'README.md': '# demo\n', 'canary.js': CANARY },
          settings: () => ({ buildCommandAllowList: [] }),
          confirmCommand: async (c) => (asked.push(c), false),
        },
      );
      const host = h;
      void host.controller.submit('canary');
      await until(() => host.pending.first('approval') !== undefined, 'the gate');
      const entry = host.pending.first('approval')!;
      const card = (entry.data as ApprovalData).request.card;
      assert.deepEqual(
        card.verifyCommands?.map((c) => [c.step, c.command, c.verdict, c.approvable]),
        [['1', command, 'ask', true]],
      );
      const shown: string[] = [];
      const ui: NativeGateUi = {
        pick: async () => 'execute' as ApprovalDecision,
        confirm: async () => true,
        feedback: async () => undefined,
        commands: async (message, detail) => (shown.push(message, detail), chosen),
      };
      const answer = await runNativeGate(card, ui);
      assert.match(shown[0]!, /verify command asks before running/);
      assert.ok(shown[1]!.includes(`$ ${command}`));
      assert.ok(await host.controller.decide(answer!.decision, answer!.feedback, entry.id, answer!.allowCommands));
      if (chosen === 'commands') {
        await until(() => existsSync(host.ws.path('canary-commands.txt')), 'the verify command', 10_000);
        assert.deepEqual(asked, [], 'approved with the plan: it ran without asking');
      } else {
        await until(() => asked.length > 0, 'the question', 10_000);
        assert.deepEqual(asked, [command]);
        await until(() => host.hub.state.lifecycle.busy === false, 'the end of the build', 10_000);
        assert.equal(existsSync(host.ws.path('canary-plan.txt')), false);
      }
    });
  }
});
