/** Resume Session lists only sessions that can be resumed (their archive holds a checkpoint), newest first. */
import assert from 'node:assert/strict';
import { resumableIds } from '../../src/host/session/resumable';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { sse } from '../support/scriptedServer';
import { startHarness } from '../support/sessionHarness';

describe('host: the sessions Resume Session lists', () => {
  it('leaves out archives with no checkpoint (or none readable), and lists the rest', async () => {
    const h = await startHarness([sse.textTurn('Hello! What should I plan?'), sse.textTurn('Again.')]);
    try {
      await h.session.start('first task');
      const store = new FileArchiveStore(h.archiveDir);
      // An archive with events but no checkpoint (a run that died before its first one), and a torn one.
      const event = {
        kind: 'event',
        event: { seq: 1, at: 1, type: 'thread.started', thread_id: 'zz1', mode: 'plan', task: 't' },
      };
      await store.append('zz1-no-checkpoint', JSON.stringify(event));
      await store.append('zz2-torn', '{"kind":"checkp');
      const all = await store.list();
      assert.ok(all.includes('zz1-no-checkpoint') && all.includes('zz2-torn') && all.includes(h.session.id));
      assert.deepEqual(await resumableIds(store, 30), [h.session.id]);
      assert.deepEqual(await resumableIds(store, 0), []);
    } finally {
      await h.close();
    }
  });
});
