import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFilesExclude, ExcludingReader } from '../../src/host/adapters/filesExclude';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

describe('planning session over the real SDK', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('explores read-only, persists a valid plan with its tracker, and stops at the gate', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
        sse.toolTurn([{ name: 'exec_command', args: { command: 'ls -la' } }]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { config: { interactive: false } },
    );
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'awaiting_approval');
    assert.equal(h.session.state, 'awaiting_approval');
    const planFile = stop.kind === 'awaiting_approval' ? stop.planFile : '';
    assert.match(planFile, /\.vtcode\/plans\/\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/);
    assert.ok(readFileSync(planFile, 'utf8').includes('# Add a greeting helper'));
    assert.ok(existsSync(planFile.replace(/\.md$/, '.tasks.md')));
    assert.ok(existsSync(join(h.ws.root, '.vtcode/tasks/current_task.md')));
    const requested = h.eventsOf('plan.approval.requested');
    assert.equal(requested.length, 1);
    assert.equal(requested[0]!.plan_file, planFile);
    // The tool results went back paired with their calls.
    const second = h.server.requests[1]!.body.messages;
    const toolMsg = second.find((m) => m['role'] === 'tool') as { content: string } | undefined;
    assert.match(toolMsg!.content, /# demo/);
    // Sequence numbers are strictly increasing.
    const seqs = h.events.map((e) => e.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
  });

  // The VS Code host's tools list through files.exclude (ExcludingReader); the gate must still see
  // every entry, as the shell will when it expands the glob.
  it("judges the shell tool on the unfiltered folders the host gives the gate, not the tools' filtered view", async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'exec_command', args: { command: 'cat l*/secret.txt' } }]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      {
        config: { interactive: false },
        readers: (ws) => {
          writeFileSync(join(ws.outside, 'secret.txt'), 'outside');
          ws.symlink('linked', ws.outside, 'dir');
          return {
            reader: new ExcludingReader(ws.reader, () => compileFilesExclude({ '**/linked': true })),
            gateFs: ws.reader,
          };
        },
      },
    );
    await h.session.start('plan something');
    const second = h.server.requests[1]!.body.messages;
    const toolMsg = second.find((m) => m['role'] === 'tool') as { content: string } | undefined;
    assert.match(toolMsg!.content, /outside the workspace/);
    assert.doesNotMatch(toolMsg!.content, /outside$/m, 'the secret was read');
  });

  it('keeps the system prompt and tool schemas byte-identical across requests', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'list_files', args: {} }]),
        sse.toolTurn([{ name: 'code_search', args: { pattern: 'demo' } }]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { config: { interactive: false } },
    );
    await h.session.start('plan something');
    const prefixes = h.server.requests.map((r) => JSON.stringify([r.body.messages[0], r.body.tools]));
    assert.equal(prefixes.length, 3);
    assert.equal(new Set(prefixes).size, 1);
  });

  it('blocks a write attempt and returns the reason to the model', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'exec_command', args: { command: 'echo hi > hacked.txt' } }]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { config: { interactive: false } },
    );
    await h.session.start('try to write');
    assert.equal(existsSync(join(h.ws.root, 'hacked.txt')), false);
    const result = h.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(result.content, /^blocked: /);
    const call = h.eventsOf('item.started').find((e) => e.item.kind === 'tool_call');
    assert.equal(call?.item.verdict?.allowed, false);
  });

  it('never shows plan markup in the visible transcript', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan(), 'Intro text.'))], {
      config: { interactive: false },
    });
    await h.session.start('plan');
    const visible = h
      .eventsOf('item.updated')
      .filter((e) => e.item.kind === 'assistant_text')
      .map((e) => e.item.delta)
      .join('');
    assert.ok(visible.includes('Intro text.'));
    assert.ok(!visible.includes('<proposed_plan>'));
    assert.ok(!visible.includes('Implementation Steps'));
    const planDeltas = h
      .eventsOf('plan.delta')
      .map((e) => e.delta)
      .join('');
    assert.ok(planDeltas.includes('Implementation Steps'));
    const planItems = h.eventsOf('item.completed').filter((e) => e.item.kind === 'plan');
    assert.equal(planItems.length, 1);
  });

  it('repairs an invalid plan once, then persists the valid one', async () => {
    const invalid = samplePlan().replace(' -> verify: [node -e "process.exit(0)"]', '');
    h = await startHarness([sse.textTurn(planResponse(invalid)), sse.textTurn(planResponse(samplePlan()))], {
      config: { interactive: false },
    });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    const repair = h.server.requests[1]!.body;
    const last = repair.messages.at(-1) as { role: string; content: string };
    assert.equal(last.role, 'user');
    assert.match(last.content, /step 1/);
    assert.match(last.content, /1 of 1 implementation steps|0 of 1/);
    assert.equal(repair['tool_choice'], 'none');
    const plans = readdirSync(join(h.ws.root, '.vtcode/plans')).filter(
      (f) => /^\d+-.*\.md$/.test(f) && !f.endsWith('.tasks.md'),
    );
    assert.equal(plans.length, 1);
  });

  it('tells the person what is wrong with a refused check, and saves a plan whose only flaw is a file link', async () => {
    const invalid = samplePlan('Add a greeting helper', 'src/greet.ts', 'git reset --hard HEAD');
    const linked = samplePlan().replace('to src/greet.ts so', 'to [greet.ts](src/greet.ts) so');
    h = await startHarness([sse.textTurn(planResponse(invalid)), sse.textTurn(planResponse(linked))], {
      config: { interactive: false },
    });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    const notices = h
      .eventsOf('item.completed')
      .map((e) => e.item)
      .filter((i) => i.kind === 'notice')
      .map((i) => (i as { text: string }).text);
    assert.ok(
      notices.some((t) => /^The proposed plan is invalid: .*`git reset --hard HEAD` is a mutating git command/.test(t)),
      notices.join('\n'),
    );
    assert.ok(
      notices.some((t) =>
        /^The plan is saved, with something to tidy: .*markdown link "\[greet\.ts\]\(src\/greet\.ts\)"/.test(t),
      ),
      notices.join('\n'),
    );
    assert.match((h.server.requests[1]!.body.messages.at(-1) as { content: string }).content, /mutating git command/);
  });

  it('gives a truncated plan one condense request', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan()), { finish: 'length' }),
        sse.textTurn(planResponse(samplePlan('Condensed'))),
      ],
      { config: { interactive: false } },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    assert.match((h.server.requests[1]!.body.messages.at(-1) as { content: string }).content, /cut off/);
    assert.ok(readFileSync(stop.kind === 'awaiting_approval' ? stop.planFile : '', 'utf8').includes('# Condensed'));
  });

  it('retries the first empty response, synthesises after the second, then hands off blocked', async () => {
    h = await startHarness([sse.textTurn(''), sse.textTurn(''), sse.textTurn('')], { config: { interactive: false } });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'blocked');
    assert.equal(h.server.requests.length, 3);
    assert.equal(h.server.requests[1]!.body['tool_choice'], undefined);
    assert.equal(h.server.requests[2]!.body['tool_choice'], 'none');
    assert.match(
      (h.server.requests[2]!.body.messages.at(-1) as { content: string }).content,
      /exactly one <proposed_plan>/,
    );
    assert.equal(h.eventsOf('thread.completed').length, 0);
    assert.equal(h.session.state, 'planning');
    assert.ok(
      stop.kind === 'blocked' && stop.resumeId !== undefined,
      'resume is advertised once the archive is verified',
    );
  });
});
