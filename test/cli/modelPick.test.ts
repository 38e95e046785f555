/** `planwise plan` with no model named: one the server lists, or two lines on how to reach a server. */
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, pendingPlanOf, runCli, useCliScene } from './cliHarness';

describe('planwise plan without --model', () => {
  const { serve, workspace } = useCliScene();

  it('plans with a model the server lists (a coding model first) and says which', async () => {
    const server = await serve([sse.textTurn(planResponse(samplePlan()))], {
      models: ['llama3.2', 'qwen2.5-coder:7b', 'scripted-model'],
    });
    const ws = workspace({ 'README.md': '# demo\n' });
    const r = await runCli(['plan', '--workspace', ws.root, '--base-url', server.baseURL, 'add a greeting helper'], {
      env: NO_RETRIES,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Model qwen2\.5-coder:7b, one of the 3 the server lists/);
    assert.equal(server.requests[0]!.body.model, 'qwen2.5-coder:7b');
    assert.ok(pendingPlanOf(r.stdout));
  });

  it('when no server answers, says so and how to point it at one, in two lines (exit 1)', async () => {
    const ws = workspace({});
    // A port nothing listens on: taken, then released.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    const r = await runCli(['plan', '--workspace', ws.root, 'task'], {
      env: { ...NO_RETRIES, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    assert.equal(r.code, 1);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, r.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `^planwise: no model server answered at http://127\\.0\\.0\\.1:${port}/v1 \\(connection refused\\)\\.$`,
      ),
    );
    assert.match(lines[1]!, /ollama pull .*OPENAI_BASE_URL=… OPENAI_API_KEY=… PLANWISE_MODEL=…/);
  });
});
