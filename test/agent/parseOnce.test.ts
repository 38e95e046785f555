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
      // The scans made for each call: from the end of the call before it to the end of its result.
      let mark = scanCount.scans;
      const perCall: number[] = [];
      h.session.bus.on((e) => {
        if (e.type !== 'item.completed' || e.item.kind !== 'tool_result') return;
        perCall.push(scanCount.scans - mark);
        mark = scanCount.scans;
      });
      await h.session.start('add a greeting helper');
      assert.deepEqual(
        perCall,
        commands.map(() => 1),
      );
    } finally {
      await h.close();
    }
  });

  it('while building: one scan for each run_command, admitted by the gate, allow-listed or asked', async () => {
    const commands = ['ls -la', 'touch made.txt', 'echo hi > out.txt'];
    const h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Make files', 'made.txt'))),
        ...commands.map((command) => sse.toolTurn([{ name: 'run_command', args: { command } }])),
        sse.textTurn('Done.'),
      ],
      {
        approve: () => ({ decision: 'execute' }),
        approveCommand: () => true,
        config: { buildAllowList: ['touch'] },
      },
    );
    try {
      let mark = 0;
      const perCall: number[] = [];
      h.session.bus.on((e) => {
        if (e.type === 'state.changed' && e.state === 'executing') mark = scanCount.scans;
        if (e.type !== 'item.completed' || e.item.kind !== 'tool_result' || mark === 0) return;
        perCall.push(scanCount.scans - mark);
        mark = scanCount.scans;
      });
      await h.session.start('make files');
      assert.deepEqual(
        perCall,
        commands.map(() => 1),
      );
    } finally {
      await h.close();
    }
  });
});
