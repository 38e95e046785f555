import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, modelArgs, runCli, sessionIdOf, useCliScene } from './cliHarness';

/** Every file under `dir`, recursively, with its content. */
function allFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFiles(p) : [{ path: p, text: readFileSync(p, 'utf8') }];
  });
}

/** A plan whose verify fails when a command can see either key variable. */
const keyCheckPlan = samplePlan(
  'Check the environment',
  'env.txt',
  'node -e "process.exit(process.env.OPENAI_API_KEY || process.env.MY_LLM_KEY ? 1 : 0)"',
);

describe('the API key never leaks', () => {
  const { serve, workspace } = useCliScene();

  for (const variant of ['OPENAI_API_KEY', '--api-key-env MY_LLM_KEY'] as const) {
    it(`is sent to the endpoint but never printed, archived or given to commands (${variant})`, async () => {
      const key = `sk-planwise-${randomBytes(12).toString('hex')}`;
      const script = () => [
        sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
        sse.textTurn(planResponse(keyCheckPlan)),
        sse.toolTurn([{ name: 'write_file', args: { path: 'env.txt', content: 'checked\n' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Checked.'),
      ];
      let server = await serve(script(), { apiKey: key });
      const ws = workspace({ 'README.md': '# demo\n' });
      const keyArgs = variant === 'OPENAI_API_KEY' ? [] : ['--api-key-env', 'MY_LLM_KEY'];
      const env = { ...NO_RETRIES, ...(variant === 'OPENAI_API_KEY' ? { OPENAI_API_KEY: key } : { MY_LLM_KEY: key }) };
      // `--approve execute` approves no command: the person allows the verify script by name.
      const allow = ['--allow-command', 'node -e *'];
      const base = ['--workspace', ws.root, ...modelArgs(server.baseURL), ...keyArgs, ...allow, '--verbose'];

      const human = await runCli(['plan', '--approve', 'execute', ...base, 'check the env'], { env });
      assert.equal(human.code, 0, human.stderr);
      // The verify command saw no key variable, so the step completed.
      assert.match(human.stdout, /\[x\] .* \(1\/1 completed, 100%\)/);
      assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`));

      await server.close();
      server = await serve(script(), { apiKey: key });
      const jsonBase = ['--workspace', ws.root, ...modelArgs(server.baseURL), ...keyArgs, ...allow, '--verbose'];
      const json = await runCli(['plan', '--json', '--approve', 'execute', ...jsonBase, 'check again'], { env });
      assert.equal(json.code, 0, json.stderr);

      const outputs = [human.stdout, human.stderr, json.stdout, json.stderr];
      outputs.forEach((o, i) => assert.ok(!o.includes(key), `output ${i} contains the key`));
      const files = allFiles(ws.root);
      assert.ok(files.some((f) => f.path.endsWith(`${sessionIdOf(human.stdout)}.jsonl`)));
      for (const f of files) assert.ok(!f.text.includes(key), `${f.path} contains the key`);
    });
  }

  it('a 401 says which environment variable holds the key and how to choose another endpoint', async () => {
    const key = `sk-planwise-${randomBytes(12).toString('hex')}`;
    const server = await serve([sse.textTurn('never reached')], { apiKey: key });
    const ws = workspace({});
    const base = ['plan', '--workspace', ws.root, ...modelArgs(server.baseURL)];
    // A loopback server needs no key to start, so the run reaches it without one.
    const none = await runCli([...base, 'task'], { env: NO_RETRIES });
    assert.equal(none.code, 1);
    assert.match(
      none.stderr,
      /requires an API key and none is set \(401: [^)]*\)\. Put the API key in the environment variable OPENAI_API_KEY \(or name another variable with --api-key-env NAME\), or choose another endpoint with --base-url URL \(or OPENAI_BASE_URL\), then run again\./,
    );
    // A wrong key read from a variable the person named: that variable is the one to fix.
    const named = await runCli([...base, '--api-key-env', 'MY_LLM_KEY', 'task'], {
      env: { ...NO_RETRIES, MY_LLM_KEY: 'sk-wrong' },
    });
    assert.equal(named.code, 1);
    assert.match(
      named.stderr,
      /rejected the API key \(401: [^)]*\)\. Put the API key in the environment variable MY_LLM_KEY \(named by --api-key-env\)/,
    );
    assert.equal(server.requests.length, 0, 'no turn was consumed');
  });

  it('masks the key when a provider quotes it in an error', async () => {
    const key = `sk-planwise-${randomBytes(12).toString('hex')}`;
    const server = await serve(() => sse.httpError(401, `Incorrect API key provided: ${key}.`));
    const ws = workspace({});
    const r = await runCli(['plan', '--workspace', ws.root, ...modelArgs(server.baseURL), 'task'], {
      env: { ...NO_RETRIES, OPENAI_API_KEY: key },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /rejected the API key \(401: Incorrect API key provided: \*\*\*\)/);
    assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key));
    // The error event went into the archive masked too.
    const archived = allFiles(ws.root).filter((f) => f.path.endsWith('.jsonl'));
    assert.equal(archived.length, 1);
    assert.match(archived[0]!.text, /Incorrect API key provided: \*\*\*/);
    for (const f of allFiles(ws.root)) assert.ok(!f.text.includes(key), `${f.path} contains the key`);
  });
});
