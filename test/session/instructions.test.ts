/**
 * The repository's instruction files reach both agents: real files in a temporary workspace, the
 * real openai SDK against the scripted server. The root files and a matching `.instructions.md`
 * are in the system message of the first planning request and of the build's; a nested
 * AGENTS.md is added once, to the first result that reads inside its folder; the request prefix
 * is byte-identical from request to request until a file changes, and then from the next turn.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionArchive } from '../../src/core/index';
import { BUILD_SYSTEM_PROMPT, PLANNING_SYSTEM_PROMPT } from '../../src/core/agent/prompt';
import { applyToMatcher, parseFrontMatter } from '../../src/core/agent/instructions';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { sse, type RecordedRequest } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const FILES: Record<string, string> = {
  'AGENTS.md': '# Agents\nRun the tests with `npm run check`, never `npm test`.\n',
  'CLAUDE.md': 'Prefer small pure functions. CLAUDE-MARK\n',
  '.github/copilot-instructions.md': 'Write commit messages in the imperative. COPILOT-MARK\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nTypeScript: no default exports. TS-MARK\n',
  '.github/instructions/py.instructions.md': '---\napplyTo: "**/*.py"\n---\nPython: use black. PY-MARK\n',
  'src/greet.ts': 'export const hello = 1;\n',
  'pkg/AGENTS.md': 'Inside pkg/, keep every module under 100 lines. PKG-MARK\n',
  'pkg/util.ts': 'export const util = 2;\n',
};

const system = (r: RecordedRequest) => String(r.body.messages[0]!['content']);
const prefix = (r: RecordedRequest) => JSON.stringify([r.body.messages[0], r.body.tools]);
const occurrences = (text: string, mark: string) => text.split(mark).length - 1;

describe('instruction files', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reach the first planning request and the build, a nested AGENTS.md once, the prefix unchanged', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'read_file', args: { path: 'pkg/util.ts' } }]),
        sse.toolTurn([{ name: 'list_files', args: { path: 'pkg' } }]),
        sse.textTurn(planResponse(samplePlan())),
        sse.textTurn('Done: added greet.'),
      ],
      { files: FILES, approve: () => ({ decision: 'execute' }) },
    );
    await h.session.start('add a greeting helper to src/greet.ts');
    const reqs = h.server.requests;
    assert.equal(reqs.length, 4);

    // The first planning request: the prompt, then the block in load order.
    const first = system(reqs[0]!);
    assert.ok(first.startsWith(PLANNING_SYSTEM_PROMPT));
    const order = ['npm run check', 'CLAUDE-MARK', 'COPILOT-MARK', 'TS-MARK'].map((m) => first.indexOf(m));
    assert.ok(
      order.every((i, k) => i > PLANNING_SYSTEM_PROMPT.length && (k === 0 || i > order[k - 1]!)),
      `in order: ${order}`,
    );
    assert.ok(!first.includes('PY-MARK'), 'a scoped file whose glob matches nothing touched is not sent');
    assert.ok(!first.includes('PKG-MARK'), 'a nested AGENTS.md waits for a read inside its folder');

    // The prefix (system message + tools) is byte-identical across the planning requests.
    assert.equal(prefix(reqs[1]!), prefix(reqs[0]!));
    assert.equal(prefix(reqs[2]!), prefix(reqs[0]!));

    // The nested AGENTS.md came with the first read inside pkg/, and only then.
    const toolMessages = reqs[2]!.body.messages.filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.equal(toolMessages.length, 2);
    assert.equal(occurrences(toolMessages[0]!, 'PKG-MARK'), 1, 'added to the read of pkg/util.ts');
    assert.equal(occurrences(toolMessages[1]!, 'PKG-MARK'), 0, 'not again to the listing of pkg/');
    assert.equal(occurrences(JSON.stringify(reqs[2]!.body.messages), 'PKG-MARK'), 1);

    // The build's request: its own prompt, the same files.
    const build = system(reqs[3]!);
    assert.ok(build.startsWith(BUILD_SYSTEM_PROMPT));
    for (const mark of ['npm run check', 'CLAUDE-MARK', 'COPILOT-MARK', 'TS-MARK'])
      assert.ok(build.includes(mark), mark);

    // What the person sees: the files with their sizes, for each agent, and the addition.
    const loaded = h.eventsOf('instructions.loaded');
    assert.deepEqual(
      loaded.map((e) => [e.agent, e.reason, e.files.map((f) => f.path)]),
      [
        [
          'plan',
          'start',
          ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.github/instructions/ts.instructions.md'],
        ],
        [
          'build',
          'start',
          ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.github/instructions/ts.instructions.md'],
        ],
      ],
    );
    assert.equal(loaded[0]!.files[0]!.bytes, Buffer.byteLength(FILES['AGENTS.md']!));
    assert.equal(loaded[0]!.truncated, false);
    const added = h.eventsOf('instructions.added');
    assert.deepEqual(
      added.map((e) => e.files.map((f) => [f.path, f.scope])),
      [[['pkg/AGENTS.md', 'folder']]],
    );

    // The session archive records them.
    const archived = await SessionArchive.load(new FileArchiveStore(h.archiveDir), h.session.id);
    assert.equal(archived?.events.filter((e) => e.type === 'instructions.loaded').length, 2);
    assert.equal(archived?.events.filter((e) => e.type === 'instructions.added').length, 1);
  });

  it('a changed file reaches the next turn only, and is announced', async () => {
    let ws = '';
    h = await startHarness(
      (_req, n) => {
        // While the first turn runs, the person edits AGENTS.md.
        if (n === 0) writeFileSync(join(ws, 'AGENTS.md'), 'Use pnpm. EDITED-MARK\n');
        if (n === 0) return sse.toolTurn([{ name: 'read_file', args: { path: 'src/greet.ts' } }]);
        if (n === 1) return sse.textTurn('Which greeting should it use?');
        if (n === 2) return sse.textTurn(planResponse(samplePlan()));
        return undefined;
      },
      { files: FILES, config: { interactive: false } },
    );
    ws = h.ws.root;
    await h.session.start('add a greeting helper');
    await h.session.submit('English, please');
    const reqs = h.server.requests;
    assert.equal(reqs.length, 3);
    assert.equal(prefix(reqs[1]!), prefix(reqs[0]!), 'the turn that was running keeps its prefix');
    assert.ok(system(reqs[1]!).includes('npm run check'));
    assert.ok(system(reqs[2]!).includes('EDITED-MARK'), 'the next turn carries the edit');
    assert.ok(!system(reqs[2]!).includes('npm run check'));
    assert.deepEqual(
      h.eventsOf('instructions.loaded').map((e) => e.reason),
      ['start', 'changed'],
    );
  });

  it('past the bound the text is cut, and the model and the person are told', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], {
      files: FILES,
      config: { interactive: false, instructions: { maxBytes: 80 } },
    });
    await h.session.start('add a greeting helper');
    const text = system(h.server.requests[0]!);
    assert.match(text, /\[Instructions cut at 80 B of [\d.]+ (B|KB): .*CLAUDE\.md/);
    assert.ok(text.includes('npm run check'), 'the first file fits whole');
    assert.ok(!text.includes('COPILOT-MARK'));
    const [e] = h.eventsOf('instructions.loaded');
    assert.equal(e?.truncated, true);
    assert.equal(e?.max_bytes, 80);
    const shown = e!.files.reduce((n, f) => n + f.shownBytes, 0);
    assert.ok(shown <= 80, `${shown} bytes shown`);
  });

  it('chosen sources only, or none', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], {
      files: FILES,
      config: { interactive: false, instructions: { sources: ['CLAUDE.md'] } },
    });
    await h.session.start('add a greeting helper to src/greet.ts');
    const only = system(h.server.requests[0]!);
    assert.ok(only.includes('CLAUDE-MARK') && !only.includes('npm run check') && !only.includes('TS-MARK'));
    await h.close();

    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], {
      files: FILES,
      config: { interactive: false, instructions: false },
    });
    await h.session.start('add a greeting helper to src/greet.ts');
    assert.equal(system(h.server.requests[0]!), PLANNING_SYSTEM_PROMPT);
    assert.equal(h.eventsOf('instructions.loaded').length, 0);
  });
});

describe('instruction file front matter', () => {
  it('reads applyTo, quoted or not, and keeps the body after it', () => {
    assert.deepEqual(parseFrontMatter('---\napplyTo: "src/**/*.ts, **/*.tsx"\n---\nbody\n'), {
      applyTo: 'src/**/*.ts, **/*.tsx',
      body: 'body\n',
    });
    assert.deepEqual(parseFrontMatter("---\ndescription: x\napplyTo: '**'\n---\nB"), { applyTo: '**', body: 'B' });
    assert.deepEqual(parseFrontMatter('no front matter'), { body: 'no front matter' });
  });

  it('matches globs as VS Code writes them', () => {
    const ts = applyToMatcher('**/*.ts,docs/*.md');
    assert.ok(ts('a.ts') && ts('src/deep/a.ts') && ts('docs/x.md'));
    assert.ok(!ts('a.tsx') && !ts('docs/sub/x.md'));
    assert.ok(applyToMatcher('**')('any/thing.py'));
  });
});
