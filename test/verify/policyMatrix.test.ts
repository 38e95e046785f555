/**
 * Rules §9, the verify-policy matrix: every entry point that runs a build-side command asks the one
 * command policy, on real processes in real temp workspaces. A command that would write a canary
 * file (`node canary.js TAG` writes `canary-TAG.txt`) proves what ran; a read-only command proves
 * it ran by its output. Entry points: the build agent's `run_command` and the verify gate on step
 * completion (a real session, scripted model), a lens Run and the panel's Run (the host's
 * `VerifyService.run`: the click that showed the whole command is the yes), Run All Verify (the
 * host's `VerifyService.runAll`, asking through the real `HostApprover`). The CLI's cells are in
 * test/cli/commandPolicy.test.ts. Each is crossed with (read-only, allow-listed, neither) × (the
 * person says yes, says no, nobody can be asked).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Verifier, validatePlan, type CommandAnswer, type PlanApprovalRequest } from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { planLenses } from '../../src/host/codelens/lenses';
import { HostApprover } from '../../src/host/prompts/hostApprover';
import { PendingRequests } from '../../src/host/prompts/pending';
import type { PromptSurface } from '../../src/host/prompts/surface';
import { TrustState } from '../../src/host/trust';
import { VerifyService } from '../../src/host/verify/verifyService';
import { sse } from '../support/scriptedServer';
import { planResponse, startHarness, type Harness } from '../support/sessionHarness';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { policyFor } from '../support/commandPolicy';

const CANARY = "require('fs').writeFileSync('canary-' + process.argv[2] + '.txt', 'ran')";
const FILES = { 'README.md': '# demo readme\n', 'canary.js': CANARY };
const READ_ONLY = 'grep -n demo README.md';
const canary = (tag: string) => `node canary.js ${tag}`;

type Kind = 'read_only' | 'allow_listed' | 'neither';
type Answer = 'yes' | 'no' | 'nobody';
const KINDS: Kind[] = ['read_only', 'allow_listed', 'neither'];
const ANSWERS: Answer[] = ['yes', 'no', 'nobody'];

/** The command of a cell, and the allow-list the person has for it. */
function cell(kind: Kind, tag: string): { command: string; allowList: string[] } {
  if (kind === 'read_only') return { command: READ_ONLY, allowList: [] };
  const command = canary(tag);
  return { command, allowList: kind === 'allow_listed' ? [command] : [] };
}

function plan(verify: readonly string[], title = 'Canary plan'): string {
  return `# ${title}

## Summary

Write the canary files.

## Implementation Steps

1. Write the first canary -> files: [canary.js, canary-*.txt] -> verify: [${verify.join(', ')}]

## Test Cases and Validation

- tests: \`${verify[0]}\`

## Assumptions and Defaults

- the canary files are scratch
`;
}

/** What every refusal must tell: that it did not run and how the person allows it. */
function assertSaysHowToAllow(text: string, command: string): void {
  assert.match(text, /did not run|did not allow/, text);
  assert.ok(text.includes('planwise.buildCommandAllowList'), text);
  assert.ok(text.includes('--allow-command'), text);
  assert.ok(text.includes(command), text);
}

/** The content of the last tool result the model was sent. */
function lastToolResult(h: Harness): string {
  const messages = h.server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
}

describe('rules §9: one command policy, every entry point (verify-policy matrix)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** A session whose build agent does `buildTurn`; the person's answer to a command question is `answer`. */
  async function build(
    kind: Kind,
    answer: Answer,
    verify: string,
    allowList: string[],
    buildTurn: ReturnType<typeof sse.toolTurn>,
  ): Promise<Harness> {
    const interactive = answer !== 'nobody';
    const harness = await startHarness([sse.textTurn(planResponse(plan([verify]))), buildTurn, sse.textTurn('Done.')], {
      files: FILES,
      config: { interactive, buildAllowList: allowList },
      approve: () => ({ decision: 'execute' }),
      approveCommand: () => answer === 'yes',
    });
    h = harness;
    const first = await harness.session.start(`canary ${kind}`);
    if (!interactive) {
      // A headless run stops at the gate; a setting (or `planwise resume`) decides it, approving no command.
      assert.equal(first.kind, 'awaiting_approval');
      await harness.session.decide('execute');
    }
    return harness;
  }

  describe('run_command (the build agent)', () => {
    for (const kind of KINDS) {
      for (const answer of ANSWERS) {
        it(`${kind} × ${answer}`, async () => {
          const tag = `run-${kind}-${answer}`;
          const { command, allowList } = cell(kind, tag);
          const s = await build(
            kind,
            answer,
            READ_ONLY,
            allowList,
            sse.toolTurn([{ name: 'run_command', args: { command } }]),
          );
          const runs = kind !== 'neither' || answer === 'yes';
          const asked = kind === 'neither' && answer !== 'nobody';
          assert.deepEqual(
            s.people.commands,
            asked ? [command] : [],
            'the person is asked exactly when the policy says',
          );
          const result = lastToolResult(s);
          if (kind === 'read_only') assert.match(result, /# demo readme/);
          else assert.equal(existsSync(s.ws.path(`canary-${tag}.txt`)), runs, result);
          if (!runs) assertSaysHowToAllow(result, command);
        });
      }
    }
  });

  describe('the verify gate on step completion', () => {
    for (const kind of KINDS) {
      for (const answer of ANSWERS) {
        it(`${kind} × ${answer}`, async () => {
          const tag = `gate-${kind}-${answer}`;
          const { command, allowList } = cell(kind, tag);
          const s = await build(
            kind,
            answer,
            command,
            allowList,
            sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          );
          const runs = kind !== 'neither' || answer === 'yes';
          const asked = kind === 'neither' && answer !== 'nobody';
          assert.deepEqual(s.people.commands, asked ? [command] : []);
          const item = s.eventsOf('tracker.updated').at(-1)!.items[0]!;
          assert.equal(item.status, runs ? 'completed' : 'in_progress');
          if (kind !== 'read_only') assert.equal(existsSync(s.ws.path(`canary-${tag}.txt`)), runs);
          const ran = s.eventsOf('verify.recorded').filter((e) => e.status === 'passed');
          assert.deepEqual(
            ran.map((e) => e.command),
            runs ? [command] : [],
          );
          if (kind === 'read_only') assert.match(ran[0]!.output, /# demo readme/);
          if (!runs) assertSaysHowToAllow(lastToolResult(s), command);
        });
      }
    }
  });

  describe('a verify that appears after the approval is asked for when it first runs', () => {
    it('a mid-execution replan: the approved command runs at once, the new one is asked for (no: not run)', async () => {
      const approved = canary('approved');
      const replanned = canary('replanned');
      const s = await startHarness(
        [
          sse.textTurn(planResponse(plan([approved]))),
          sse.textTurn(planResponse(plan([approved, replanned], 'Canary plan, revised'), 'Revised plan:')),
          sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          sse.textTurn('Done.'),
        ],
        {
          files: FILES,
          // The person ticks "also allow" on the gate: the listed command is approved for this build.
          approve: (r) => ({ decision: 'execute', allowCommands: r.card.verifyCommands!.map((c) => c.command) }),
          approveCommand: () => false,
        },
      );
      h = s;
      await s.session.start('canary replan');
      assert.deepEqual(
        s.people.approvals[0]!.card.verifyCommands!.map((c) => [c.command, c.verdict, c.approvable]),
        [[approved, 'ask', true]],
      );
      assert.equal(s.people.approvals.length, 1, 'the replan inside the approved run opened no gate');
      assert.deepEqual(s.people.commands, [replanned], 'only the command the person never saw was asked for');
      assert.equal(existsSync(s.ws.path('canary-approved.txt')), true);
      assert.equal(existsSync(s.ws.path('canary-replanned.txt')), false);
      assert.equal(s.eventsOf('tracker.updated').at(-1)!.items[0]!.status, 'in_progress');
      assertSaysHowToAllow(lastToolResult(s), replanned);
    });

    it('a hand edit at the gate: its new command is listed but cannot be approved with the plan; asked when it runs', async () => {
      const listed = canary('listed');
      const edited = canary('edited');
      let card: PlanApprovalRequest['card'] | undefined;
      const s = await startHarness(
        [
          sse.textTurn(planResponse(plan([listed]))),
          sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          sse.textTurn('Done.'),
        ],
        {
          files: FILES,
          approve: async (r) => {
            // At the gate the person edits the plan file, adding a verify command, then approves the
            // plan with "also allow" ticked, naming every command the new card lists.
            const file = r.planFile;
            writeFileSync(
              file,
              readFileSync(file, 'utf8').replace(`verify: [${listed}]`, `verify: [${listed}, ${edited}]`),
            );
            assert.deepEqual(await h!.session.planEdited(file), { kind: 'revision', revision: 2 });
            card = h!.eventsOf('plan.approval.requested').at(-1)!.card;
            return { decision: 'execute', allowCommands: card.verifyCommands!.map((c) => c.command) };
          },
          approveCommand: () => false,
        },
      );
      h = s;
      await s.session.start('canary hand edit');
      assert.deepEqual(
        card!.verifyCommands!.map((c) => [c.command, c.verdict, c.approvable]),
        [
          [listed, 'ask', true],
          [edited, 'ask', false],
        ],
      );
      assert.deepEqual(s.people.commands, [edited]);
      assert.equal(existsSync(s.ws.path('canary-listed.txt')), true);
      assert.equal(existsSync(s.ws.path('canary-edited.txt')), false);
      assert.equal(s.eventsOf('tracker.updated').at(-1)!.items[0]!.status, 'in_progress');
      assertSaysHowToAllow(lastToolResult(s), edited);
    });

    it('approving the plan alone approves none of its commands', async () => {
      const command = canary('plan-only');
      const s = await startHarness(
        [
          sse.textTurn(planResponse(plan([command]))),
          sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          sse.textTurn('Done.'),
        ],
        { files: FILES, approve: () => ({ decision: 'execute' }), approveCommand: () => false },
      );
      h = s;
      await s.session.start('canary plan only');
      assert.deepEqual(s.people.commands, [command]);
      assert.equal(existsSync(s.ws.path('canary-plan-only.txt')), false);
    });
  });

  describe('the host: a lens or panel Run click, and Run All Verify', () => {
    let ws: TempWorkspace;
    afterEach(() => ws.cleanup());

    /** The host's verify service over a real Verifier; Run All asks through the real HostApprover. */
    function host(kind: Kind, answer: Answer, tag: string, trusted = true) {
      const { command, allowList } = cell(kind, tag);
      ws = makeTempWorkspace({ ...FILES, '.vtcode/plans/canary.md': plan([command]) });
      const trust = new TrustState(trusted);
      const questions: string[] = [];
      const surface: PromptSurface = {
        panelVisible: () => true,
        update: () => undefined,
        offerNative: () => undefined,
        confirmCommand: async (c): Promise<CommandAnswer> => (questions.push(c), answer === 'yes'),
      };
      const verifier = new Verifier({
        runner: new NodeCommandRunner(),
        cwd: () => ws.root,
        now: Date.now,
        policy: () => ({ ...policyFor(ws.root, allowList, trusted)(), trusted: trust.trusted }),
      });
      const approver = new HostApprover({ pending: new PendingRequests(), surface, relativePath: (p) => p });
      const verify = new VerifyService({
        verifier,
        trust,
        read: async (f) => readFileSync(f, 'utf8'),
        parse: validatePlan,
        approver,
      });
      return { verify, verifier, command, questions, planFile: ws.path('.vtcode/plans/canary.md') };
    }

    for (const kind of KINDS) {
      it(`lens and panel Run: ${kind}: the lens shows the whole command; the click is the yes`, async () => {
        const tag = `lens-${kind}`;
        const { verify, command, questions, planFile } = host(kind, 'no', tag);
        const markdown = readFileSync(planFile, 'utf8');
        const lens = planLenses({
          markdown,
          verdict: validatePlan(markdown),
          trusted: true,
          now: Date.now(),
          resultOf: () => undefined,
          gateOpen: false,
          revisions: 1,
        }).find((l) => l.action.kind === 'runVerify')!;
        assert.equal(lens.title, `▶ ${command}`);
        assert.ok(lens.tooltip?.includes(command));
        // Before the click nothing ran (the person saying no is not clicking).
        if (kind !== 'read_only') assert.equal(existsSync(ws.path(`canary-${tag}.txt`)), false);
        const r = await verify.run(planFile, '1', command);
        assert.equal(r.status, 'passed');
        assert.deepEqual(questions, [], 'a click asks nothing more');
        if (kind === 'read_only') assert.match(r.output, /# demo readme/);
        else assert.equal(existsSync(ws.path(`canary-${tag}.txt`)), true);
      });

      for (const answer of ['yes', 'no'] as const) {
        it(`Run All Verify: ${kind} × ${answer}`, async () => {
          const tag = `all-${kind}-${answer}`;
          const { verify, verifier, command, questions, planFile } = host(kind, answer, tag);
          const summary = await verify.runAll(planFile);
          const runs = kind !== 'neither' || answer === 'yes';
          assert.deepEqual(questions, kind === 'neither' ? [command] : []);
          assert.deepEqual(summary, { passed: runs ? 1 : 0, failed: 0, manual: 0, notRun: runs ? 0 : 1 });
          if (kind !== 'read_only') assert.equal(existsSync(ws.path(`canary-${tag}.txt`)), runs);
          if (!runs) assertSaysHowToAllow(verifier.latest(planFile, '1', command)!.output, command);
        });
      }
    }

    it('nobody can be asked (no surface answers): Run All refuses what needs a yes, and says how to allow it', async () => {
      const { verifier, command, planFile } = host('neither', 'no', 'all-nobody');
      const r = await verifier.run(planFile, '1', { kind: 'command', text: command, command }, { origin: 'person' });
      assert.equal(r.refused, true);
      assertSaysHowToAllow(r.output, command);
      assert.equal(existsSync(ws.path('canary-all-nobody.txt')), false);
    });

    it('an untrusted workspace runs nothing, not even a click or a read-only command', async () => {
      for (const kind of KINDS) {
        const { verifier, command, planFile } = host(kind, 'yes', `untrusted-${kind}`, false);
        const r = await verifier.run(
          planFile,
          '1',
          { kind: 'command', text: command, command },
          {
            origin: 'person',
            clicked: true,
          },
        );
        assert.equal(r.refused, true, kind);
        assert.match(r.output, /not trusted/);
        assert.equal(existsSync(ws.path(`canary-untrusted-${kind}.txt`)), false);
        ws.cleanup();
      }
      ws = makeTempWorkspace({});
    });
  });
});
