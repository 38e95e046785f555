/**
 * A window reload mid-turn, with the host's real engine wiring: the closing window disposes its
 * controller while the model is still streaming; the next window resumes the session as
 * "Interrupted — Resume" (the person's message shown once, nothing busy), and Resume runs the
 * turn again through to the gate.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, type EngineHost } from './engineHost';

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

const userRows = (h: EngineHost) => h.hub.state.transcript.filter((i) => i.kind === 'user').map((i) => i.text);

describe('host: a reload mid-turn', () => {
  it('comes back as "Interrupted — Resume", and Resume runs the turn to the gate', async () => {
    const h = await startEngineHost([{ chunks: [sse.text('Reading the repository')], stallAfter: 1 }]);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h.server.requests.length === 1, 'the first request');
    const id = h.controller.current!.id;
    const { ws, archiveDir } = h;
    // The window reloads: its controller is disposed mid-stream, and a new host takes over.
    h.controller.dispose();
    await run; // the cut-off run has settled: whatever it leaves in the archive is there now
    await h.server.close();
    const again = await startEngineHost([sse.textTurn(planResponse(samplePlan('Greet politely')))], {
      ws,
      archiveDir,
    });
    try {
      await again.controller.resume(id);
      const notice = again.hub.state.notices.find((n) => n.text.startsWith('Interrupted —'));
      assert.ok(notice, `notices: ${JSON.stringify(again.hub.state.notices)}`);
      assert.equal(notice.resumeAvailable, true);
      assert.equal(notice.sessionId, id);
      assert.deepEqual(userRows(again), ['add a greeting helper']);
      assert.equal(again.hub.state.lifecycle.state, 'planning');
      assert.equal(again.hub.state.lifecycle.busy, false);
      assert.equal(again.controller.isBusy, false);
      assert.equal(again.server.requests.length, 0, 'nothing is sent before the person says Resume');

      // The notice's Resume button.
      await again.controller.resume(notice.sessionId!);
      await until(() => again.pending.has('approval'), 'the gate');
      assert.equal(again.hub.state.gate?.title, 'Greet politely');
      assert.equal(
        again.hub.state.notices.some((n) => n.text.startsWith('Interrupted')),
        false,
        'the notice is gone',
      );
      assert.deepEqual(userRows(again), ['add a greeting helper'], 'the message is not repeated');
      const sent = again.server.requests[0]!.body.messages.filter((m) => m.role === 'user');
      assert.equal(sent.length, 1);
    } finally {
      await again.close();
      rmSync(ws.root, { recursive: true, force: true });
    }
  });
});
