/**
 * Honest rows, on the engine the host builds: one transcript row per tool call, and its outcome is
 * the engine's (allowed and ran, blocked by the gate, failed), never a second "Failed" row.
 */
import assert from 'node:assert/strict';
import { summariseArgs } from '../../src/host/panel/translate';
import type { ToolCallItem } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

describe('tool rows', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('one row per call with the outcome the engine decided', async () => {
    h = await startEngineHost([
      sse.toolTurn([
        { name: 'read_file', args: { path: 'README.md' } },
        { name: 'exec_command', args: { command: 'rm README.md' } },
        { name: 'read_file', args: { path: 'missing.md' } },
      ]),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    const run = h.controller.start('look around', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const t = h.hub.state.transcript;
    const calls = t.filter((i): i is ToolCallItem => i.kind === 'tool_call');
    assert.equal(calls.length, 3);
    assert.equal(t.filter((i) => i.kind === 'tool_result').length, 0, 'no second row for a result');
    assert.deepEqual(
      calls.map((c) => [c.name, c.outcome]),
      [
        ['read_file', 'ok'],
        ['exec_command', 'blocked'],
        ['read_file', 'failed'],
      ],
    );
    assert.match(calls[0]!.preview ?? '', /# demo/);
    assert.equal(calls[1]!.verdict?.allowed, false);
    await h.controller.decide('cancel');
    await run;
  });

  it('the interview reads as its questions, not JSON', () => {
    const args = JSON.stringify({
      questions: [
        { id: 'a', header: 'Scope', question: 'Which API version?', options: [{ label: 'v1' }, { label: 'v2' }] },
        { id: 'b', header: 'Names', question: 'Keep the old names?', options: [{ label: 'yes' }, { label: 'no' }] },
      ],
    });
    assert.equal(summariseArgs(args), 'Which API version? · Keep the old names?');
  });
});
