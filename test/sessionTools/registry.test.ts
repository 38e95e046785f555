import assert from 'node:assert/strict';
import { checkPlanningToolCall } from '../../src/core/gate';
import { toolSchemaOf, type ToolDefinition } from '../../src/core/tools';
import {
  buildAgentTools,
  deleteFileTool,
  editFileTool,
  runCommandTool,
  writeFileTool,
} from '../../src/core/tools/build';
import {
  planningSessionTools,
  replyToReviewCommentTool,
  requestUserInputTool,
  startPlanningTool,
  taskTrackerTool,
} from '../../src/core/tools/session';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const ALL: readonly ToolDefinition[] = [
  requestUserInputTool,
  taskTrackerTool,
  replyToReviewCommentTool,
  startPlanningTool,
  editFileTool,
  writeFileTool,
  deleteFileTool,
  runCommandTool,
];

describe('session and build tool definitions', () => {
  it('have the names and kinds the runloop and the gate rely on', () => {
    assert.deepEqual(
      ALL.map((t) => [t.name, t.kind]),
      [
        ['request_user_input', 'interview'],
        ['task_tracker', 'tracker'],
        ['reply_to_review_comment', 'tracker'],
        ['start_planning', 'other'],
        ['edit_file', 'write'],
        ['write_file', 'write'],
        ['delete_file', 'write'],
        ['run_command', 'shell'],
      ],
    );
    assert.deepEqual(
      planningSessionTools.map((t) => t.name),
      ['request_user_input', 'task_tracker', 'reply_to_review_comment'],
    );
    assert.deepEqual(
      buildAgentTools.map((t) => t.name),
      ['edit_file', 'write_file', 'delete_file', 'run_command', 'task_tracker', 'start_planning'],
    );
  });

  for (const tool of ALL) {
    it(`${tool.name}: a description of at most 25 words and an object JSON Schema`, () => {
      const words = tool.description.split(/\s+/).filter(Boolean).length;
      assert.ok(words <= 25, `${tool.name} description has ${words} words`);
      const schema = toolSchemaOf(tool);
      assert.equal(schema.parameters.type, 'object');
      assert.equal('$schema' in schema.parameters, false);
    });
  }

  describe('while planning, the read-only gate', () => {
    let ws: TempWorkspace;
    beforeEach(() => (ws = makeTempWorkspace({ 'src/a.ts': 'a\n' })));
    afterEach(() => ws.cleanup());
    const check = (tool: ToolDefinition, args: Record<string, unknown>) =>
      checkPlanningToolCall({ name: tool.name, kind: tool.kind }, args, {
        roots: [ws.root],
        trusted: true,
        plansDir: '.vtcode/plans',
        fs: ws.reader,
      });

    it('admits the interview and the tracker, and blocks start_planning and writes outside the plans folder', async () => {
      assert.equal((await check(requestUserInputTool, {})).allowed, true);
      assert.equal((await check(taskTrackerTool, { action: 'create' })).allowed, true);
      assert.equal((await check(startPlanningTool, { reason: 'x' })).allowed, false);
      assert.equal((await check(editFileTool, { path: 'src/a.ts', old_text: 'a', new_text: 'b' })).allowed, false);
      assert.equal((await check(writeFileTool, { path: 'src/b.ts', content: '' })).allowed, false);
      assert.equal((await check(writeFileTool, { path: '.vtcode/plans/p.md', content: '' })).allowed, true);
      assert.equal((await check(runCommandTool, { command: 'touch x' })).allowed, false);
    });
  });
});
