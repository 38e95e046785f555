/**
 * A shell command is scanned once per tool call: the gate's judgement carries its parse to the
 * guards, the classifiers, the policy and the tool.
 */
import assert from 'node:assert/strict';
import { scanCount } from '../../src/core/gate/scan';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness } from '../support/sessionHarness';

describe('a shell command is scanned once per tool call', function () {
  this.timeout(30_000);

  it('while planning: one scan for each exec_command, allowed or refused', async () => {
    const commands = ['ls -la', 'rg -n greet .', 'echo hi > out.txt', 'npm test'];
    const h = await startHarness([
      ...commands.map((command) => sse.toolTurn([{ name: 'exec_command', args: { command } }])),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    try {
      const before = scanCount.scans;
      await h.session.start('add a greeting helper');
      const calls = h.events.filter((e) => e.type === 'item.started' && e.item.kind === 'tool_call');
      assert.equal(calls.length, commands.length);
      assert.equal(scanCount.scans - before, commands.length);
    } finally {
      await h.close();
    }
  });
});
