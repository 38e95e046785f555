/**
 * Each tool says what a call did in a person's words, from the arguments the model sent; the
 * dispatcher puts those words in the call's event, and every host shows them as they are.
 */
import assert from 'node:assert/strict';
import { readOnlyTools } from '../../src/core/tools';
import { buildAgentTools } from '../../src/core/tools/build';
import { planningSessionTools } from '../../src/core/tools/session';
import type { ToolDefinition } from '../../src/core/tools';

const all: readonly ToolDefinition[] = [...readOnlyTools, ...planningSessionTools, ...buildAgentTools];
const tool = (name: string) => {
  const t = all.find((x) => x.name === name);
  assert.ok(t, name);
  return t;
};
const title = (name: string, args: Record<string, unknown>) => tool(name).describe(args).title;

describe('tools describe their calls', () => {
  it('in words, never as the tool name or raw arguments', () => {
    assert.equal(title('read_file', { path: 'src/a.ts' }), 'Read src/a.ts');
    assert.equal(title('read_file', { path: 'src/a.ts', start_line: 10, end_line: 40 }), 'Read src/a.ts, lines 10–40');
    assert.equal(title('list_files', {}), 'Listed the workspace');
    assert.equal(title('list_files', { path: 'src' }), 'Listed src');
    assert.equal(title('code_search', { pattern: 'parse(', path: 'src' }), 'Searched src for `parse(`');
    assert.equal(title('code_search', { pattern: 'x', glob: '*.ts' }), 'Searched the workspace (*.ts) for `x`');
    assert.equal(title('exec_command', { command: 'ls -la' }), 'Ran `ls -la`');
    assert.equal(title('run_command', { command: 'echo `date`' }), 'Ran `` echo `date` ``');
    assert.equal(title('edit_file', { path: 'src/a.ts', old_text: 'a', new_text: 'b' }), 'Edited src/a.ts');
    assert.equal(title('write_file', { path: 'notes.txt', content: 'x' }), 'Wrote notes.txt');
    assert.equal(title('delete_file', { path: 'old.ts' }), 'Deleted old.ts');
    assert.equal(title('request_user_input', { questions: [{}, {}] }), 'Asked you 2 questions');
    assert.equal(
      title('task_tracker', { action: 'update', index: 2, status: 'in_progress' }),
      'Marked step 2 in progress',
    );
    assert.equal(
      title('task_tracker', { action: 'update', index: 0, status: 'completed' }),
      'Marked the whole list completed',
    );
    assert.equal(title('task_tracker', { action: 'create', items: ['a', 'b', 'c'] }), 'Wrote the task list (3 items)');
    assert.equal(title('task_tracker', { action: 'add', parent_index_path: '2' }), 'Added a task under step 2');
    assert.equal(title('read_spool', { id: 's1' }), 'Read more of an earlier result');
  });

  it('from arguments that do not validate, and cut long text to one line', () => {
    for (const t of all) {
      const d = t.describe({ path: 42, command: null, pattern: ['x'] });
      assert.ok(d.title.length > 0 && !d.title.includes(t.name), `${t.name}: ${d.title}`);
    }
    const long = title('exec_command', { command: `rg -n ${'x'.repeat(300)}\nsrc` });
    assert.ok(long.length < 130 && !long.includes('\n') && long.endsWith('…`'), long);
  });
});
