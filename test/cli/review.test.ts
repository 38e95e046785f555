import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, pendingPlanOf, runCli, sessionIdOf, useCliScene } from './cliHarness';

const reply = (id: string, text: string) =>
  sse.toolTurn([{ name: 'reply_to_review_comment', args: { id, reply: text, status: 'addressed' } }]);

describe('planwise review', () => {
  const { setup, workspace } = useCliScene();

  it('adds threads by prefix, resolves one, lists them; plans counts them; resume --approve revise sends the open ones', async () => {
    const s = await setup([
      sse.textTurn(planResponse(samplePlan('Add notes', 'notes.txt'))),
      reply('c1', 'Parsing uses zod now.'),
      sse.textTurn(planResponse(samplePlan('Add notes', 'src/notes.ts'))),
    ]);
    const first = await runCli(['plan', ...s.args, 'add notes'], { env: NO_RETRIES });
    assert.equal(first.code, 0, first.stderr);
    const id = sessionIdOf(first.stdout);
    const planFile = pendingPlanOf(first.stdout);
    const ws = ['--workspace', s.ws.root];

    const added = await runCli([
      'review',
      ...ws,
      planFile,
      '--comment',
      'step 1: use zod here',
      '--comment',
      'summary: say why',
      '--comment',
      'overall fine',
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^added c1 on step 1\nadded c2 on the summary\nadded c3 on the plan as a whole\n/);
    assert.match(added.stdout, /^3 open of 3 threads on \.vtcode\/plans\/.*\.md \(revision 1\)$/m);
    assert.match(added.stdout, /^c1 {2}step 1, line 9 {2}\[open\]\n {4}you: use zod here$/m);

    const resolved = await runCli(['review', ...ws, planFile, '--resolve', 'c3', '--json']);
    assert.equal(resolved.code, 0, resolved.stderr);
    const state = JSON.parse(resolved.stdout);
    assert.equal(state.open, 2);
    assert.deepEqual(
      state.threads.map((t: { id: string; status: string }) => [t.id, t.status]),
      [
        ['c1', 'open'],
        ['c2', 'open'],
        ['c3', 'resolved'],
      ],
    );

    const plans = await runCli(['plans', ...ws]);
    assert.match(plans.stdout, /\s2 open\s+-\s+Add notes$/m);

    const revised = await runCli(['resume', id, '--approve', 'revise', ...s.args, 'keep it small'], {
      env: NO_RETRIES,
    });
    assert.equal(revised.code, 0, revised.stderr);
    const body = (s.server.requests[1]!.body.messages as { role: string; content: string }[]).at(-1)!.content;
    assert.match(body, /<review_thread id="c1" element="step 1">[\s\S]*> use zod here/);
    assert.match(body, /<review_thread id="c2" element="the summary">/);
    assert.doesNotMatch(body, /c3|overall fine/);
    assert.match(body, /General note from the person:\n> keep it small/);

    const after = JSON.parse((await runCli(['review', ...ws, planFile, '--json'])).stdout);
    assert.equal(after.revision, 2);
    const c1 = after.threads[0];
    assert.deepEqual(
      [c1.comments[1].author, c1.comments[1].verdict, c1.outdated?.revision],
      ['planner', 'addressed', 1],
    );
    const sidecar = JSON.parse(readFileSync(planFile.replace(/\.md$/, '.review.json'), 'utf8'));
    assert.deepEqual(sidecar.requests[0].answeredBy, 2);
  });

  it('exits 1 for an element the plan lacks or an unknown id, 2 for usage errors', async () => {
    const ws = workspace({ '.vtcode/plans/p.md': samplePlan() });
    const base = ['review', '--workspace', ws.root, 'p'];
    const missing = await runCli([...base, '--comment', 'step 4: what?']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^planwise review: the plan has no step 4$/m);
    const unknown = await runCli([...base, '--resolve', 'c9']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no review thread "c9"; this plan has no review threads/);
    assert.equal((await runCli(['review', '--workspace', ws.root])).code, 2);
    for (const notFolder of [`${ws.root}/.vtcode/plans/p.md`, `${ws.root}/nope`]) {
      const r = await runCli(['review', '--workspace', notFolder, 'p']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^planwise review: workspace '.*' is not an existing directory$/m);
    }
    assert.equal((await runCli([...base, '--comment'])).code, 2);
    const none = await runCli(base);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /^No review threads on \.vtcode\/plans\/p\.md\.$/m);
  });
});
