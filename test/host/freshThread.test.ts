/**
 * "Clear context and implement" in the host the extension really builds (engine, pending table,
 * panel hub, translator) over a scripted model: after that choice the panel shows a fresh thread
 * (the approved plan, the decision, the fresh-context notice, then the build), as the model has
 * one; a new window that resumes the session shows the same thread.
 */
import assert from 'node:assert/strict';
import type { TranscriptItem } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

const textOf = (items: readonly TranscriptItem[]) =>
  items.map((i) => `${i.kind}: ${'text' in i ? i.text : 'markdown' in i ? i.markdown.split('\n')[0] : ''}`);

describe('Clear context and implement: the panel shows a fresh thread', () => {
  const hosts: EngineHost[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.close();
  });

  it('keeps only the approved plan and the decision, then the build; Resume shows the same thread', async () => {
    const h = await startEngineHost([
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      sse.textTurn(planResponse(samplePlan('Add a greeting helper', 'src/greet.ts'), 'I read the README first.')),
      sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.ts', content: 'export const greet = 1;\n' } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Added the helper.'),
    ]);
    hosts.push(h);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h.pending.has('approval'), 'the gate');
    const before = textOf(h.hub.state.transcript);
    assert.ok(before.includes('user: add a greeting helper'), before.join('\n'));
    assert.ok(
      before.some((l) => l.startsWith('assistant: I read the README first.')),
      before.join('\n'),
    );
    assert.ok(h.hub.state.transcript.some((i) => i.kind === 'tool_call'));

    assert.ok(await h.controller.decide('fresh_context'));
    const stop = await run;
    assert.equal(stop?.kind, 'completed');
    const after = h.hub.state.transcript;
    const lines = textOf(after);
    // The old thread is gone from the panel: the task, the planner's words, its tool calls.
    assert.ok(!lines.includes('user: add a greeting helper'), lines.join('\n'));
    assert.ok(!lines.some((l) => l.startsWith('assistant: I read the README first.')), lines.join('\n'));
    assert.ok(!after.some((i) => i.kind === 'tool_call' && /README/.test(JSON.stringify(i))));
    // It opens with the plan, the decision and the fresh-context notice, in that order.
    assert.equal(after[0]!.kind, 'plan');
    assert.match(lines[0]!, /# Add a greeting helper/);
    assert.match(lines[1]!, /^notice: .*fresh context/i);
    assert.match(lines[2]!, /^notice: Fresh context: the approved plan was carried over/);
    // Then the build: its write and its final card.
    assert.ok(after.some((i) => i.kind === 'tool_call' && /greet\.ts/.test(JSON.stringify(i))));
    assert.ok(after.some((i) => i.kind === 'build_report'));
    const id = h.controller.current!.id;

    // A new window resumes the session from its archive: the same fresh thread.
    const again = await startEngineHost([], { archiveDir: h.archiveDir, ws: h.ws });
    hosts.unshift(again);
    await again.controller.resume(id);
    assert.deepEqual(textOf(again.hub.state.transcript), lines);
  });
});
