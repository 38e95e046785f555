/**
 * The interview on a real terminal: the built CLI runs under `script`, which gives it a
 * pseudo-terminal, and the test types keys into it as a person would (Enter, a number, Esc).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sse, type RecordedRequest, type ScriptedServer } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, buildOneFileCli, modelArgs, useCliScene } from './cliHarness';

const questions = {
  name: 'request_user_input',
  args: {
    questions: [
      {
        header: 'Name',
        question: 'Which name should the helper have?',
        options: [{ label: 'greet', recommended: true }, { label: 'hello' }],
      },
      {
        header: 'Tests',
        question: 'Add a unit test?',
        options: [{ label: 'yes', recommended: true }, { label: 'no' }],
      },
    ],
  },
};

interface Terminal {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Everything the terminal showed so far. */
  screen(): string;
  /** Waits until `text` has appeared `times` times on the screen. */
  waitFor(text: string, times?: number): Promise<void>;
  type(keys: string): void;
}

function quoteArg(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function openTerminal(command: readonly string[], cwd: string): Terminal {
  const proc = spawn('script', ['-qfec', command.map(quoteArg).join(' '), '/dev/null'], {
    cwd,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TERM: 'xterm', ...NO_RETRIES },
    stdio: 'pipe',
  });
  let screen = '';
  proc.stdout.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  proc.stderr.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  const count = (text: string) => screen.split(text).length - 1;
  return {
    proc,
    // Without colours and cursor moves, so a test reads it as a person does.
    // eslint-disable-next-line no-control-regex
    screen: () => screen.replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
    async waitFor(text, times = 1) {
      for (let i = 0; i < 400 && count(text) < times && proc.exitCode === null; i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.ok(count(text) >= times, `'${text}' (x${times}) never appeared:\n${screen}`);
    },
    type: (keys) => proc.stdin.write(keys),
  };
}

describe('the interview on a terminal (pseudo-terminal)', function () {
  this.timeout(60_000);
  let outDir: string;
  let cli: string;
  const { serve, workspace } = useCliScene();
  const open: Terminal[] = [];

  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'planwise-cli-tty-'));
    cli = await buildOneFileCli(outDir);
  });
  afterEach(() => {
    for (const t of open.splice(0)) t.proc.kill('SIGKILL');
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  async function interview(keysForQuestion2: string): Promise<{ server: ScriptedServer; term: Terminal }> {
    const server = await serve([sse.toolTurn([questions]), sse.textTurn(planResponse(samplePlan()))]);
    const ws = workspace({ 'README.md': '# demo\n' });
    const term = openTerminal(
      [
        process.execPath,
        cli,
        'plan',
        '--interactive',
        '--workspace',
        ws.root,
        ...modelArgs(server.baseURL),
        'add a helper',
      ],
      ws.root,
    );
    open.push(term);
    await term.waitFor('Choose 1-2 (Enter for 1, skip or Esc to skip this question)');
    term.type('2\r');
    await term.waitFor('Choose 1-2 (Enter for 1, skip or Esc to skip this question)', 2);
    term.type(keysForQuestion2);
    // The plan arrives and the gate asks: the interview's answers have reached the model by then.
    await term.waitFor('Choose 1-3');
    return { server, term };
  }

  const toolResult = (r: RecordedRequest) =>
    (r.body.messages.find((m) => m['role'] === 'tool') as { content: string }).content;

  it('option 2, then Enter at the second question: both answers reach the planner', async () => {
    const { server, term } = await interview('\r');
    assert.match(toolResult(server.requests[1]!), /The person answered:\n- Name: hello\n- Tests: yes\n/);
    assert.match(term.screen(), /✓ Name: hello\r?\n✓ Tests: yes/);
  });

  it('option 2, then Esc at the second question: the first answer is kept, the second skipped', async () => {
    const { server, term } = await interview('\u001b');
    assert.match(toolResult(server.requests[1]!), /The person answered:\n- Name: hello\n- Tests: \(not answered\)\n/);
    assert.match(term.screen(), /Skipped\./);
  });

  it('typed text then Esc skips without sending the text as an answer', async () => {
    const { server } = await interview('no\u001b');
    assert.match(toolResult(server.requests[1]!), /- Tests: \(not answered\)/);
  });
});
