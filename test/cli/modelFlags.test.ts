/**
 * The CLI's model transport options and what it prints about the model: the timeout flags reach
 * the client, vscode-lm is refused with a sentence, a retry's wait is a line, and an error never
 * glues onto streamed text.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { parseRunFlags } from '../../src/cli/commands/plan';
import { resolveModelSettings } from '../../src/cli/compose';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { sse } from '../support/scriptedServer';
import { NO_RETRIES, runCli, useCliScene } from './cliHarness';

/** stdout and stderr into one sink, in the order they were written (as a terminal shows them). */
async function runInterleaved(argv: string[], env: Record<string, string>) {
  const chunks: string[] = [];
  const sink = () =>
    new Writable({
      write(chunk: Buffer | string, _e, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
  const stdin = new PassThrough();
  stdin.end();
  const io: CliIO = {
    stdout: sink(),
    stderr: sink(),
    stdin,
    env: { PATH: process.env['PATH'], ...env },
    cwd: process.cwd(),
  };
  const code = await main(argv, io);
  return { code, text: chunks.join('') };
}

describe('CLI: model transport flags and lines', () => {
  const scene = useCliScene();

  it('--first-byte-timeout and --idle-timeout take seconds and reach the client settings', () => {
    const f = parseRunFlags([
      '--first-byte-timeout',
      '600',
      '--idle-timeout=30',
      '--compact-at',
      '70',
      '--model',
      'm',
      't',
    ]);
    assert.ok(!('error' in f) && !('help' in f));
    assert.equal(f.firstByteTimeout, 600);
    assert.equal(f.idleTimeout, 30);
    assert.equal(f.compactAt, 70);
    const s = resolveModelSettings(f, { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    assert.ok(!('error' in s));
    assert.equal(s.firstByteTimeoutMs, 600_000);
    assert.equal(s.idleTimeoutMs, 30_000);
    const d = resolveModelSettings(parseRunFlags(['--model', 'm']) as never, {});
    assert.ok(!('error' in d) && d.firstByteTimeoutMs === 120_000 && d.idleTimeoutMs === 120_000);
    assert.deepEqual(parseRunFlags(['--idle-timeout', '0']), {
      error: "--idle-timeout needs a whole number of seconds (1 to 86400), not '0'",
    });
  });

  it('--provider vscode-lm is refused: the CLI has openai-compatible only, and says so', async () => {
    const r = await runCli(['plan', '--provider', 'vscode-lm', '--model', 'm', 'task']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /the CLI supports the openai-compatible provider only: vscode-lm \(VS Code's Language Model API, e\.g\. GitHub Copilot\) works inside VS Code/,
    );
    assert.ok(!('error' in parseRunFlags(['--provider', 'openai-compatible'])));
  });

  it('a silent server ends with the first-byte message naming the flag', async () => {
    const { args } = await scene.setup([{ ...sse.textTurn('late'), headersDelayMs: 5000 }]);
    const r = await runCli(['plan', ...args, '--first-byte-timeout', '1', 'task'], { env: NO_RETRIES });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /did not answer within 1s \(no response at all\): the first-byte timeout fired/);
    assert.match(r.stderr, /--first-byte-timeout SECONDS/);
  });

  it('a retry wait is one line in the transcript', async () => {
    const { args } = await scene.setup([
      sse.httpError(503, 'loading', { headers: { 'retry-after': '1' } }),
      sse.textTurn('No plan needed.'),
    ]);
    const r = await runCli(['plan', ...args, '--non-interactive', 'task'], { env: { PLANWISE_MODEL_RETRIES: '1' } });
    assert.match(
      r.stdout,
      /… Retrying in 1 s \(attempt 2 of 2\): the endpoint answered 503 and asked to wait 1 s\. Ctrl-C stops\./,
    );
  });

  it('ends the streamed line before printing an error: never "Done.planwise: …"', async () => {
    const { args } = await scene.setup([{ ...sse.textTurn('Done.'), cutAfter: 2 }]);
    const r = await runInterleaved(['plan', ...args, '--non-interactive', 'task'], NO_RETRIES);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.text, /Done\.planwise:/);
    assert.match(r.text, /Done\.\nplanwise: /);
  });
});
