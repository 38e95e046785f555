import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, runCli, sessionIdOf, useCliScene } from './cliHarness';

describe('planwise plan --non-interactive --approve execute: the closing audit, and planwise revert', () => {
  const { setup } = useCliScene();
  const plan = samplePlan('Say hello', 'src/greet.ts', 'grep -q hello src/greet.ts');
  const files = { 'src/greet.ts': "export const greeting = 'hi';\n", 'README.md': '# demo\n' };

  it('prints the report and exits 0 when every step completed; revert restores the tree byte for byte', async () => {
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([
          { name: 'edit_file', args: { path: 'src/greet.ts', old_text: "'hi'", new_text: "'hello'" } },
          { name: 'write_file', args: { path: 'src/extra.ts', content: 'export const extra = 1;\n' } },
        ]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Changed the greeting to hello.'),
      ],
      files,
    );
    const r = await runCli(['plan', '--non-interactive', '--approve', 'execute', ...s.args, 'say hello'], {
      env: NO_RETRIES,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /# Execution report: Say hello\n\nChanged 2 files \(\+2 −1\): src\/greet\.ts, src\/extra\.ts\./,
    );
    assert.match(
      r.stdout,
      /## Out-of-scope changes\n\n- src\/extra\.ts \(create\): allowed by recorded \(scope mode record\)/,
    );
    assert.match(r.stdout, /\(written to \.vtcode\/plans\/.*\.report\.md\)/);
    assert.match(r.stdout, /Done \(session /);

    const id = sessionIdOf(r.stdout);
    const revert = await runCli(['revert', '--workspace', s.ws.root, id]);
    assert.equal(revert.code, 0, revert.stderr);
    assert.match(revert.stdout, /-export const greeting = 'hello';\n\+export const greeting = 'hi';/);
    assert.match(
      revert.stdout,
      /Reverted to its state before the build: restored src\/greet\.ts; removed src\/extra\.ts\./,
    );
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), files['src/greet.ts']);
    assert.equal(existsSync(s.ws.path('src/extra.ts')), false);
    assert.equal(readFileSync(s.ws.path('README.md'), 'utf8'), files['README.md']);
    const again = await runCli(['revert', '--workspace', s.ws.root, id]);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /Nothing to revert/);
  });

  it("a shell command's writes are in the report and planwise revert restores them byte for byte", async () => {
    // The allow-list takes one simple command: the script holds the shell's work.
    const command = 'sh edit.sh';
    const script = "sed -i 's/hi/hello/' src/greet.ts && printf 'x\\000y' > notes.bin && rm README.md\n";
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([{ name: 'run_command', args: { command } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Changed the greeting with sed.'),
      ],
      { ...files, 'edit.sh': script },
    );
    const r = await runCli(
      ['plan', '--non-interactive', '--approve', 'execute', '--allow-command', command, ...s.args, 'say hello'],
      { env: NO_RETRIES },
    );
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /Changed 3 files \(\+2 −2\): README\.md, notes\.bin, src\/greet\.ts\./);
    assert.match(r.stdout, /- README\.md \(delete via `sh edit\.sh`\): allowed by recorded \(scope mode record\)/);
    assert.match(r.stdout, /- notes\.bin \(create via `sh edit\.sh`\): allowed by recorded \(scope mode record\)/);
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), "export const greeting = 'hello';\n");
    const revert = await runCli(['revert', '--workspace', s.ws.root, sessionIdOf(r.stdout)]);
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), files['src/greet.ts']);
    assert.equal(readFileSync(s.ws.path('README.md'), 'utf8'), files['README.md']);
    assert.equal(existsSync(s.ws.path('notes.bin')), false);
    assert.equal(readFileSync(s.ws.path('edit.sh'), 'utf8'), script, 'a file the build never touched is left alone');
  });

  it('exits 1 when the build ended with a step incomplete, and says so', async () => {
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([
          { name: 'write_file', args: { path: 'src/greet.ts', content: "export const greeting = 'hey';\n" } },
        ]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Tried.'),
      ],
      files,
    );
    const r = await runCli(['plan', '--non-interactive', '--approve', 'execute', ...s.args, 'say hello'], {
      env: NO_RETRIES,
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /## Steps left incomplete\n\n- 1\. Add the greet function: verify `grep -q hello src\/greet\.ts` failed \(exit 1\)/,
    );
    assert.match(r.stderr, /The build ended with 1 step incomplete .* planwise revert /);
  });

  it('--strict-scope refuses out-of-scope writes headless; revert --to-step of a step that never completed says so', async () => {
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/extra.ts', content: 'x\n' } }]),
        sse.textTurn('Stayed in scope.'),
      ],
      files,
    );
    const r = await runCli(
      ['plan', '--non-interactive', '--approve', 'execute', '--strict-scope', ...s.args, 'say hello'],
      { env: NO_RETRIES },
    );
    assert.equal(r.code, 1);
    assert.equal(existsSync(s.ws.path('src/extra.ts')), false);
    const tool = s.server.requests[2]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(tool.content, /scope mode is strict.*propose a revised plan/s);
    const id = sessionIdOf(r.stdout);
    const revert = await runCli(['revert', '--workspace', s.ws.root, '--to-step', '1', id]);
    assert.equal(revert.code, 2);
    assert.match(revert.stderr, /no build checkpoints|step 1 never completed/);
  });

  it('revert asks nothing without a terminal, and reverts a file the person changed after the build', async () => {
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([{ name: 'edit_file', args: { path: 'src/greet.ts', old_text: "'hi'", new_text: "'hello'" } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Done.'),
      ],
      files,
    );
    const r = await runCli(['plan', '--non-interactive', '--approve', 'execute', ...s.args, 'x'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    writeFileSync(s.ws.path('src/greet.ts'), 'mine\n');
    const revert = await runCli(['revert', '--workspace', s.ws.root, sessionIdOf(r.stdout)]);
    assert.equal(revert.code, 0, revert.stderr);
    assert.match(
      revert.stdout,
      /! src\/greet\.ts was changed after the build; reverting it too \(no terminal to ask\)/,
    );
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), files['src/greet.ts']);
  });
});

describe('planwise plan on a terminal: a scope request', () => {
  const { setup } = useCliScene();

  it('asks with the three choices; "2" allows the rest of the build and the report says who allowed it', async () => {
    const plan = samplePlan('Say hello', 'src/greet.ts', 'grep -q hello src/greet.ts');
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([
          { name: 'write_file', args: { path: 'src/extra.ts', content: 'x\n' } },
          { name: 'write_file', args: { path: 'src/more.ts', content: 'y\n' } },
          { name: 'edit_file', args: { path: 'src/greet.ts', old_text: "'hi'", new_text: "'hello'" } },
        ]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Done.'),
      ],
      { 'src/greet.ts': "export const greeting = 'hi';\n" },
    );
    const r = await runCli(['plan', '--interactive', ...s.args, 'say hello'], { env: NO_RETRIES, stdin: ['1', '2'] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\? The build agent wants to create src\/extra\.ts, outside the plan's scope:/);
    assert.match(r.stdout, /plan scope: src\/greet\.ts/);
    assert.match(r.stdout, /allowed for the rest of this build/);
    assert.equal((r.stdout.match(/outside the plan's scope/g) ?? []).length, 1, 'asked once for the build');
    assert.match(r.stdout, /- src\/extra\.ts \(create\): allowed by person \(rest of the build\)/);
    assert.match(r.stdout, /- src\/more\.ts \(create\): allowed by person \(rest of the build\)/);
    assert.equal(readFileSync(s.ws.path('src/more.ts'), 'utf8'), 'y\n');
  });

  it('planwise plans names the last build; after revert --to-step 1 the tracker, the plan list and the tracker file say step 2 is pending', async () => {
    const two = `# Greet and bye

## Summary

Add greet and bye modules.

## Implementation Steps

1. Add greet -> files: [src/greet.ts] -> verify: [grep -q hello src/greet.ts]
2. Add bye -> files: [src/bye.ts] -> verify: [grep -q bye src/bye.ts]

## Test Cases and Validation

- tests: \`grep -q hello src/greet.ts\`

## Assumptions and Defaults

- English only
`;
    const s = await setup(
      [
        sse.textTurn(planResponse(two)),
        sse.toolTurn([{ name: 'edit_file', args: { path: 'src/greet.ts', old_text: "'hi'", new_text: "'hello'" } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/bye.ts', content: "export const bye = 'bye';\n" } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 2, status: 'completed' } }]),
        sse.textTurn('Both done.'),
      ],
      { 'src/greet.ts': "export const greeting = 'hi';\n" },
    );
    const r = await runCli(['plan', '--non-interactive', '--approve', 'execute', ...s.args, 'greet and bye'], {
      env: NO_RETRIES,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const id = sessionIdOf(r.stdout);
    const listed = async () =>
      JSON.parse((await runCli(['plans', '--json', '--workspace', s.ws.root])).stdout) as {
        file: string;
        progress: { percent: number; counts: { done: number } };
        lastBuild: { session: string } | null;
      }[];
    const before = (await listed())[0]!;
    assert.equal(before.progress.percent, 100);
    assert.equal(before.lastBuild?.session, id, 'plans names the build revert takes');
    const table = await runCli(['plans', '--workspace', s.ws.root]);
    assert.match(table.stdout, new RegExp(`LAST BUILD[\\s\\S]*${id}`));

    const reportFile = before.file.replace(/\.md$/, '.report.md');
    assert.match(readFileSync(reportFile, 'utf8'), /Outcome: done · 2 of 2 steps completed/);

    const revert = await runCli(['revert', '--workspace', s.ws.root, '--to-step', '1', id]);
    assert.equal(revert.code, 0, revert.stderr);
    assert.match(revert.stdout, /The plan's tracker: 1\/2 done \(50%\)\./);
    // The build's report follows: step 2 is no longer done, and the files the build changed stay listed.
    assert.match(revert.stdout, /The build's report: \.vtcode\/plans\/.*\.report\.md \(1 of 2 steps done\)\./);
    const report = readFileSync(reportFile, 'utf8');
    assert.match(report, /Outcome: done · 1 of 2 steps completed/);
    assert.match(report, /### 2\. Add bye: pending\n- Verify: `grep -q bye src\/bye\.ts`: not run/);
    assert.match(report, /Remaining blockers: step 2 /);
    assert.match(report, /Changed 2 files \(\+2 −1\): src\/greet\.ts, src\/bye\.ts\./);
    assert.equal(existsSync(s.ws.path('src/bye.ts')), false, 'step 2 undone on disk');
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), "export const greeting = 'hello';\n");
    const after = (await listed())[0]!;
    assert.equal(after.progress.percent, 50);
    assert.equal(after.progress.counts.done, 1);
    // The kept verify results follow: step 1's stays, step 2's (which no longer describes the files) is gone.
    const journal = (): { step: string }[] =>
      (JSON.parse(readFileSync(after.file.replace(/\.md$/, '.verify.json'), 'utf8')) as { results: { step: string }[] })
        .results;
    assert.deepEqual(
      journal().map((r) => r.step),
      ['1'],
    );
    const sidecar = readFileSync(after.file.replace(/\.md$/, '.tasks.md'), 'utf8');
    assert.match(sidecar, /- \[x\] .*Add greet/);
    assert.match(sidecar, /- \[ \] .*Add bye/);
  });
});
