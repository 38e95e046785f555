import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../../src/core/tools';
import { writeFileTool as tool } from '../../src/core/tools/build/writeFile';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor, RefusingWriter } from './helpers';

describe('write_file', () => {
  let ws: TempWorkspace;
  let ctx: AgentToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'README.md': '# Old\n' });
    ctx = agentContextFor(ws);
  });
  afterEach(() => ws.cleanup());

  it('creates a file and its missing parent folders', async () => {
    const r = await tool.run({ path: 'src/deep/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' }, ctx);
    assert.equal(r.ok, true, r.content);
    assert.equal(r.content, 'created src/deep/new.ts (2 lines, 40 bytes)');
    assert.equal(readFileSync(ws.path('src/deep/new.ts'), 'utf8'), 'export const a = 1;\nexport const b = 2;\n');
  });

  it('replaces a whole file and says how big it was', async () => {
    const r = await tool.run({ path: 'README.md', content: '# New\n\nMore text' }, ctx);
    assert.equal(r.content, 'replaced README.md (3 lines, 16 bytes; it was 6 bytes)');
    assert.equal(readFileSync(ws.path('README.md'), 'utf8'), '# New\n\nMore text');
  });

  it('writes an empty file', async () => {
    const r = await tool.run({ path: 'empty.txt', content: '' }, ctx);
    assert.equal(r.content, 'created empty.txt (0 lines, 0 bytes)');
    assert.equal(readFileSync(ws.path('empty.txt'), 'utf8'), '');
  });

  it('writes through a symlink inside the workspace to its target, keeping the link', async () => {
    ws.symlink('docs', 'README.md');
    await tool.run({ path: 'docs', content: 'via link\n' }, ctx);
    assert.ok(lstatSync(ws.path('docs')).isSymbolicLink());
    assert.equal(readFileSync(ws.path('README.md'), 'utf8'), 'via link\n');
  });

  it('refuses paths outside the workspace (.., absolute, ~, symlinked folder, dangling link) and writes nothing there', async () => {
    ws.symlink('out', ws.outside, 'dir');
    ws.symlink('dangling', join(ws.outside, 'missing.txt'));
    writeFileSync(join(ws.outside, 'keep.txt'), 'keep');
    const refusing = new RefusingWriter();
    for (const path of [
      '../outside/x.txt',
      join(ws.outside, 'x.txt'),
      '~/x.txt',
      'out/keep.txt',
      'out/new/x.txt',
      'dangling',
    ]) {
      const r = await tool.run({ path, content: 'x' }, { ...ctx, writer: refusing } as AgentToolContext);
      assert.equal(r.ok, false, path);
      assert.match(r.content, /^write_file refused: /, path);
    }
    assert.equal(refusing.calls, 0);
    assert.deepEqual(readdirSync(ws.outside), ['keep.txt']);
    assert.equal(readFileSync(join(ws.outside, 'keep.txt'), 'utf8'), 'keep');
  });

  it('refuses a folder, a path ending in a slash, and a path under an existing file', async () => {
    ws.mkdir('src');
    const folder = await tool.run({ path: 'src', content: 'x' }, ctx);
    assert.match(folder.content, /^write_file: src is a folder/);
    const slash = await tool.run({ path: 'lib/', content: 'x' }, ctx);
    assert.match(slash.content, /ends with a slash, so it names a folder/);
    assert.equal(existsSync(ws.path('lib')), false);
    const under = await tool.run({ path: 'README.md/inner/x.txt', content: 'x' }, ctx);
    assert.match(under.content, /^write_file: README\.md is a file, so it cannot hold README\.md\/inner\/x\.txt/);
    assert.equal(readFileSync(ws.path('README.md'), 'utf8'), '# Old\n');
  });

  it('validates its arguments as the model sends them', async () => {
    const r = await runTool(tool, JSON.stringify({ path: 'a.txt' }), ctx);
    assert.match(r.content, /^write_file: invalid arguments \(content: /);
    assert.equal(existsSync(ws.path('a.txt')), false);
  });

  it('fails clearly without a writer', async () => {
    const { writer: _none, ...rest } = ctx;
    await assert.rejects(
      tool.run({ path: 'a.txt', content: 'x' }, rest),
      /write_file is not available here: .*"writer"/,
    );
  });
});
