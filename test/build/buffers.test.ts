/**
 * The editor side of "nothing of the person's is lost", through the BufferWriter port: a fake
 * editor holds documents (text + dirty flag) the way VS Code does, and the build tools must compute
 * on the open text, apply range edits, and leave a dirty document unsaved.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BufferWriter, EditOutcome, TextEdit } from '../../src/core/build/ports';
import { StaleTextError, applyEdits } from '../../src/core/build/textEdits';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { writeFileTool } from '../../src/core/tools/build/writeFile';
import { readFileTool } from '../../src/core/tools/readFile';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { guardedContext } from './helpers';

/** Open documents over the real disk: edits land in the buffer, saves write it out. */
class FakeEditor implements BufferWriter {
  readonly docs = new Map<string, { text: string; dirty: boolean }>();
  readonly edits: { path: string; edits: readonly TextEdit[] }[] = [];
  readonly wholeWrites: string[] = [];
  private readonly disk = new NodeWorkspaceWriter();

  open(path: string): void {
    this.docs.set(path, { text: readFileSync(path, 'utf8'), dirty: false });
  }
  type(path: string, edit: (text: string) => string): void {
    const doc = this.docs.get(path)!;
    doc.text = edit(doc.text);
    doc.dirty = true;
  }
  async openText(path: string) {
    const d = this.docs.get(path);
    return d ? { ...d } : undefined;
  }
  async editText(path: string, base: string, edits: readonly TextEdit[]): Promise<EditOutcome> {
    if (!this.docs.has(path)) this.open(path);
    const doc = this.docs.get(path)!;
    if (doc.text !== base) throw new StaleTextError('changed');
    this.edits.push({ path, edits });
    doc.text = applyEdits(doc.text, edits);
    const leftUnsaved = doc.dirty;
    if (!leftUnsaved) await this.disk.writeFileAtomic(path, doc.text);
    return { leftUnsaved };
  }
  async writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
    this.wholeWrites.push(path);
    await this.disk.writeFileAtomic(path, data);
  }
  mkdirp(path: string): Promise<void> {
    return this.disk.mkdirp(path);
  }
}

const SOURCE = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';

describe('unsaved buffers: the build edits what the person sees and never saves over it', () => {
  let ws: TempWorkspace;
  let editor: FakeEditor;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/a.js': SOURCE });
    editor = new FakeEditor();
    editor.open(ws.path('src/a.js'));
  });
  afterEach(() => ws.cleanup());

  it('the person typed without saving; the agent edits another part: both are in the buffer, the disk is untouched', async () => {
    const g = guardedContext(ws, { mode: 'record', writer: editor });
    editor.type(ws.path('src/a.js'), (t) => t.replace('  return 1;', '  // the person\n  return 1;'));
    const read = await readFileTool.run({ path: 'src/a.js' }, g.ctx);
    assert.match(read.content, /\/\/ the person/, 'the agent reads the open text, unsaved lines included');
    const r = await editFileTool.run({ path: 'src/a.js', old_text: 'return 2;', new_text: 'return 20;' }, g.ctx);
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /had unsaved changes of the person's, so it was left unsaved/);
    // The person reads it under the row, with the change counted on the text they see.
    assert.deepEqual([r.change?.added, r.change?.removed], [1, 1]);
    assert.match(r.change?.note ?? '', /^src\/a\.js had unsaved changes of yours, so this change is unsaved too/);
    const doc = editor.docs.get(ws.path('src/a.js'))!;
    assert.equal(
      doc.text,
      SOURCE.replace('  return 1;', '  // the person\n  return 1;').replace('return 2;', 'return 20;'),
    );
    assert.equal(doc.dirty, true);
    assert.equal(readFileSync(ws.path('src/a.js'), 'utf8'), SOURCE, 'nothing was saved over the file');
    // A range edit, never the whole document.
    assert.equal(editor.wholeWrites.length, 0);
    const edits = editor.edits[0]!.edits;
    assert.deepEqual(
      edits.map((e) => e.text),
      ['return 20;'],
    );
    assert.equal(edits[0]!.end - edits[0]!.start, 'return 2;'.length);
  });

  it('the person changed the very lines after the agent read them: "changed since you read it", a re-read, then success', async () => {
    const g = guardedContext(ws, { mode: 'record', writer: editor });
    await readFileTool.run({ path: 'src/a.js' }, g.ctx);
    editor.type(ws.path('src/a.js'), (t) => t.replace('return 2;', 'return 2; // mine'));
    const first = await editFileTool.run({ path: 'src/a.js', old_text: 'return 2;', new_text: 'return 3;' }, g.ctx);
    assert.equal(first.ok, false);
    assert.match(first.content, /the file changed since you read it; read it again/);
    assert.equal(editor.edits.length, 0);
    await readFileTool.run({ path: 'src/a.js' }, g.ctx);
    const again = await editFileTool.run(
      { path: 'src/a.js', old_text: 'return 2; // mine', new_text: 'return 3; // mine' },
      g.ctx,
    );
    assert.equal(again.ok, true, again.content);
    assert.match(editor.docs.get(ws.path('src/a.js'))!.text, /return 3; \/\/ mine/);
  });

  it('a document that changes between the read and the edit is refused by the writer too (stale)', async () => {
    const g = guardedContext(ws, { mode: 'record', writer: editor });
    const racing: BufferWriter = {
      ...editor,
      openText: (p) => editor.openText(p),
      editText: async (p, base, edits) => {
        editor.type(p, (t) => `${t}// typed meanwhile\n`);
        return editor.editText(p, base, edits);
      },
      writeFileAtomic: (p, d) => editor.writeFileAtomic(p, d),
      mkdirp: (p) => editor.mkdirp(p),
    };
    const r = await editFileTool.run({ path: 'src/a.js', old_text: 'return 1;', new_text: 'return 10;' }, {
      ...g.ctx,
      writer: racing,
    } as AgentToolContext);
    assert.equal(r.ok, false);
    assert.match(r.content, /changed since you read it/);
  });

  it('write_file over an open clean document is one minimal range edit, then saved', async () => {
    const g = guardedContext(ws, { mode: 'record', writer: editor });
    const next = SOURCE.replace('return 1;', 'return 100;');
    const r = await writeFileTool.run({ path: 'src/a.js', content: next }, g.ctx);
    assert.equal(r.ok, true, r.content);
    // `1` becomes `100`: two characters inserted, nothing else touched.
    const at = SOURCE.indexOf('1;') + 1;
    assert.deepEqual(editor.edits[0]!.edits, [{ start: at, end: at, text: '00' }]);
    assert.equal(readFileSync(ws.path('src/a.js'), 'utf8'), next, 'a clean document is saved');
  });
});
