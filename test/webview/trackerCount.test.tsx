/**
 * One count: for the same nested tracker (three levels, mixed statuses) built by a real build run,
 * the percentage in the engine's `tracker.updated`, the panel's DOM, the status-bar text,
 * `planwise plans --json` and the tracker file on disk are one number.
 */
import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { createSession, parseTrackerFile, trackerCounts, type ThreadEvent } from '../../src/core/index';
import { plansCommand } from '../../src/cli/commands/plans';
import { systemClock } from '../../src/node/clock';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { EventTranslator } from '../../src/host/panel/translate';
import { statusView } from '../../src/host/status/format';
import { InProcessModel } from '../support/inProcessModel';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const OK = 'node -e "process.exit(0)"';
const PLAN = `# Nested work

## Summary

Three steps, the first split in two levels.

## Implementation Steps

1. Build the parts -> files: [src/parts.js] -> verify: ${OK}
2. Wire them -> files: [src/wire.js] -> verify: ${OK}
3. Ship it -> files: [src/ship.js] -> verify: ${OK}

## Test Cases and Validation

- tests: \`${OK}\`

## Assumptions and Defaults

- none needed
`;

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _e: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

describe('one tracker count on every surface', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'README.md': '# demo\n' });
  });
  afterEach(() => ws.cleanup());

  it('event, panel DOM, status bar, planwise plans and the tracker file agree for a three-level tracker', async () => {
    const model = new InProcessModel([
      { text: `Here is the plan.\n<proposed_plan>\n${PLAN}\n</proposed_plan>\n` },
      {
        tools: [
          {
            name: 'task_tracker',
            args: {
              action: 'add',
              parent_index_path: '1',
              items: [
                {
                  description: 'Part A',
                  children: [
                    { description: 'A1', status: 'completed' },
                    { description: 'A2', status: 'in_progress' },
                  ],
                },
                { description: 'Part B' },
              ],
            },
          },
        ],
      },
      { tools: [{ name: 'task_tracker', args: { action: 'update', index: 2, status: 'completed' } }] },
      { tools: [{ name: 'task_tracker', args: { action: 'update', index: 3, status: 'blocked' } }] },
      { text: 'Parts half done, wiring done, shipping blocked.' },
    ]);
    const approver = {
      approvePlan: async () => ({ decision: 'cancel' as const }),
      grantMore: async () => 0,
      approveCommand: async () => false,
    };
    const session = createSession(
      {
        reader: ws.reader,
        writer: new NodeWorkspaceWriter(),
        searcher: createSearcher(ws.reader),
        runner: new NodeCommandRunner(),
        model,
        clock: systemClock,
        interviewer: { ask: async () => ({ kind: 'cancelled' }) },
        approver,
      },
      // A headless run: its verify command runs because the person allow-listed it.
      { planningModel: 'm', trusted: true, interactive: false, autoDecision: 'execute', buildAllowList: [OK] },
    );
    const events: ThreadEvent[] = [];
    session.bus.on((e) => events.push(e));
    const stop = await session.start('nested work');
    assert.equal(stop.kind, 'completed');
    const last = events.filter((e) => e.type === 'tracker.updated').at(-1) as Extract<
      ThreadEvent,
      { type: 'tracker.updated' }
    >;
    assert.equal(last.items[0]!.children[0]!.children.length, 2, 'three levels');

    // Leaves: A1 done, A2 in progress, B pending, step 2 done, step 3 blocked: 2 of 5 = 40%.
    // Counting every node instead (the panel's old way) would give 2 of 8 = 25%.
    const fromEvent = last.percent;
    assert.deepEqual(last.counts, { done: 2, inProgress: 1, pending: 1, blocked: 1, total: 5 });
    assert.equal(fromEvent, 40);

    const translator = new EventTranslator({ relativePath: (p) => p.slice(ws.root.length + 1) });
    const panel = mountPanel({
      state: { flags: { hasApiKey: true, trusted: true } },
      savedUi: { expanded: { tracker: true } },
    });
    panel.update(translator.translate(last));
    const section = panel.getByRole('region', { name: 'Task tracker' });
    const fromDom = Number(/· (\d+)%$/.exec(section.querySelector('.pw-tracker-counts')!.textContent!.trim())![1]);
    assert.equal(section.querySelector('progress')?.getAttribute('value'), String(fromDom));

    const fromStatus = Number(
      /(\d+) percent/.exec(statusView(null, null, panel.host.state.tracker).accessibilityLabel)![1],
    );

    const out = new Sink();
    const io = { stdout: out, stderr: new Sink(), stdin: new PassThrough(), env: {}, cwd: ws.root };
    assert.equal(await plansCommand(['--json'], io), 0);
    const listed = JSON.parse(out.text) as { file: string; progress: { percent: number } }[];
    const fromPlans = listed.find((p) => p.file === session.planFile)!.progress.percent;

    const sidecar = session.planFile!.replace(/\.md$/, '.tasks.md');
    const fromFile = trackerCounts(parseTrackerFile(readFileSync(sidecar, 'utf8'))).percent;

    assert.deepEqual(
      { fromDom, fromStatus, fromPlans, fromFile },
      {
        fromDom: fromEvent,
        fromStatus: fromEvent,
        fromPlans: fromEvent,
        fromFile: fromEvent,
      },
    );
  });
});
