import assert from 'node:assert/strict';
import { readOnlyTools, runTool, toolSchemaOf } from '../../src/core/tools';
import { readFileTool } from '../../src/core/tools/readFile';
import type { ToolDefinition } from '../../src/core/tools/types';
import { z } from 'zod';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

describe('tool registry helpers', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = makeTempWorkspace({ 'a.txt': 'one\ntwo\n' })));
  afterEach(() => ws.cleanup());

  it('offers the five read-only tools with JSON Schemas of their arguments', () => {
    const schemas = readOnlyTools.map(toolSchemaOf);
    assert.deepEqual(
      schemas.map((s) => s.name),
      ['read_file', 'list_files', 'code_search', 'exec_command', 'read_spool'],
    );
    const read = schemas[0]!;
    assert.equal(read.parameters.type, 'object');
    assert.deepEqual(read.parameters.required, ['path']);
    assert.ok(!('$schema' in read.parameters));
    const props = read.parameters.properties as Record<string, { type?: string }>;
    assert.equal(props.start_line?.type, 'integer');
    for (const s of schemas) assert.ok(s.description.length < 120, `${s.name} has a short description`);
  });

  it('parses and validates raw arguments, then runs the tool', async () => {
    const ctx = contextFor(ws);
    const r = await runTool(readFileTool, '{"path":"a.txt","start_line":2}', ctx);
    assert.equal(r.content, 'a.txt lines 2-2 of 2\n2\ttwo');
  });

  it('explains invalid JSON and invalid arguments', async () => {
    const ctx = contextFor(ws);
    assert.match((await runTool(readFileTool, '{path:', ctx)).content, /^read_file: the arguments are not valid JSON/);
    const bad = await runTool(readFileTool, '{"start_line":0}', ctx);
    assert.equal(bad.ok, false);
    assert.match(bad.content, /^read_file: invalid arguments \(path: .*; start_line: .*\)/);
  });

  it('turns a thrown error into a failed result', async () => {
    const broken: ToolDefinition = {
      name: 'broken',
      description: 'x',
      kind: 'other',
      schema: z.object({}),
      run: () => Promise.reject(new Error('disk on fire')),
      describe: () => ({ title: 'Broke', subject: 'nothing' }),
    };
    const r = await runTool(broken, '', contextFor(ws));
    assert.deepEqual([r.ok, r.content], [false, 'broken failed: disk on fire']);
  });
});
