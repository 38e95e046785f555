/**
 * Rules §9 through the real CLI (`planwise plan`, scripted stdin, scripted model): the CLI cells of
 * the verify-policy matrix. The build agent's `run_command` and the verify gate on step
 * completion ask the one command policy; `--interactive` asks on the terminal, `--non-interactive`
 * refuses and names `--allow-command` and the setting; `--approve execute` approves the plan and
 * none of its commands; "also allow" at the gate and `--allow-command` do. A command that would
 * write a canary file (`node canary.js TAG` writes `canary-TAG.txt`) proves what ran.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { planResponse } from '../support/sessionHarness';
import { NO_RETRIES, runCli, useCliScene } from './cliHarness';

const CANARY = "require('fs').writeFileSync('canary-' + process.argv[2] + '.txt', 'ran')";
const FILES = { 'README.md': '# demo readme\n', 'canary.js': CANARY };
const READ_ONLY = 'grep -n demo README.md';

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

type Kind = 'read_only' | 'allow_listed' | 'neither';
type Answer = 'yes' | 'no' | 'nobody';

describe('rules §9 in the CLI: run_command and the verify gate ask the one command policy', () => {
  const { setup } = useCliScene();

  /** The agent runs `node canary.js run-…` and then marks step 1 (whose verify is the cell's command) completed. */
  async function build(kind: Kind, answer: Answer, extra: { stdin?: string[]; flags?: string[] } = {}) {
    const tag = `${kind}-${answer}`;
    const verify = kind === 'read_only' ? READ_ONLY : `node canary.js verify-${tag}`;
    const run = kind === 'read_only' ? READ_ONLY : `node canary.js run-${tag}`;
    const s = await setup(
      [
        sse.textTurn(planResponse(plan(verify))),
        sse.toolTurn([{ name: 'run_command', args: { command: run } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
        sse.textTurn('Done.'),
      ],
      FILES,
    );
    const allow = kind === 'allow_listed' ? ['--allow-command', run, '--allow-command', verify] : [];
    const says = answer === 'yes' ? 'y' : 'n';
    // At the gate: "1"; then, when the verify command would ask, "also allow it?" is answered no;
    // then the question for run_command, then the one for the verify command.
    const stdin = extra.stdin ?? (kind === 'neither' ? ['1', 'n', says, says] : ['1']);
    const mode = answer === 'nobody' ? ['--non-interactive', '--approve', 'execute'] : ['--interactive'];
    const r = await runCli(['plan', ...mode, ...allow, ...(extra.flags ?? []), ...s.args, 'canary'], {
      env: NO_RETRIES,
      ...(answer === 'nobody' ? {} : { stdin }),
    });
    return { ...r, ws: s.ws, verify, run, tag };
  }

  for (const kind of ['read_only', 'allow_listed', 'neither'] as const) {
    for (const answer of ['yes', 'no', 'nobody'] as const) {
      it(`${kind} × ${answer}`, async () => {
        const r = await build(kind, answer);
        const runs = kind !== 'neither' || answer === 'yes';
        const asked = kind === 'neither' && answer !== 'nobody';
        const questions =
          r.stdout.match(/\? The build wants to run a command that needs your approval:\n {4}\$ .*/g) ?? [];
        assert.deepEqual(
          questions.map((q) => q.split('$ ')[1]),
          asked ? [r.run, r.verify] : [],
          r.stdout,
        );
        if (kind !== 'read_only') {
          assert.equal(existsSync(r.ws.path(`canary-run-${r.tag}.txt`)), runs, r.stdout);
          assert.equal(existsSync(r.ws.path(`canary-verify-${r.tag}.txt`)), runs, r.stdout);
        }
        assert.match(r.stdout, runs ? /\(1\/1 completed, 100%\)/ : /verify not run \(needs your yes\)/);
        if (!runs) {
          // The step stays in progress, and the build ends incomplete.
          assert.equal(r.code, 1, r.stderr);
          assert.match(r.stdout, /step 1 stays in progress: its verify command did not run/);
        }
        if (answer === 'nobody' && !runs) {
          for (const c of [r.run, r.verify]) {
            assert.ok(
              r.stdout.includes(
                `! Not run (non-interactive): $ ${c} — allow it with --allow-command '${c}' or the setting planwise.buildCommandAllowList`,
              ),
              r.stdout,
            );
          }
        }
      });
    }
  }

  it('the gate lists every verify command with its verdict; "also allow" approves them for this build', async () => {
    const r = await build('neither', 'no', { stdin: ['1', 'y', 'n'] });
    assert.match(r.stdout, /verify commands:\n {4}step 1: \$ node canary\.js verify-neither-no {2}\(will ask\)/);
    assert.match(r.stdout, /Also allow the verify command marked "will ask" for this build\? \[y\/N\] y/);
    // The verify command runs without asking; run_command (another text, never listed) is still asked for.
    const questions = r.stdout.match(/\? The build wants to run a command that needs your approval:\n {4}\$ .*/g) ?? [];
    assert.deepEqual(
      questions.map((q) => q.split('$ ')[1]),
      [r.run],
    );
    assert.equal(existsSync(r.ws.path(`canary-verify-${r.tag}.txt`)), true);
    assert.equal(existsSync(r.ws.path(`canary-run-${r.tag}.txt`)), false);
  });

  it('--non-interactive --approve execute --allow-command runs what the flag names, and only that', async () => {
    const r = await build('neither', 'nobody', { flags: ['--allow-command', 'node canary.js verify-*'] });
    assert.equal(existsSync(r.ws.path(`canary-verify-${r.tag}.txt`)), true);
    assert.equal(existsSync(r.ws.path(`canary-run-${r.tag}.txt`)), false);
    assert.match(r.stdout, /\(1\/1 completed, 100%\)/);
  });

  it('"a" (always) runs it and allows it for the rest of the run, printing the flag for next time', async () => {
    const r = await build('neither', 'yes', { stdin: ['1', 'n', 'a', 'n'] });
    assert.match(
      r.stdout,
      /approved for this run; next time pass --allow-command 'node canary\.js run-neither-yes', or add it to planwise\.buildCommandAllowList/,
    );
    assert.equal(existsSync(r.ws.path(`canary-run-${r.tag}.txt`)), true);
    assert.equal(existsSync(r.ws.path(`canary-verify-${r.tag}.txt`)), false);
  });
});
