// Scenario 6 in a real VS Code (code-server) on the installed VSIX: the API key set through
// "Planwise: Set API Key" reaches the model server as the bearer token and nowhere else (settings,
// logs, session archives, the panel's DOM); a window reload mid-plan brings the session and its
// pending gate back without any command. Then Planwise's activation time, measured by VS Code over
// several starts next to its floor (an empty extension, test/e2e/fixtures/activation-floor, activated
// the same way: through a command, in the same extension host), is written to
// test-artifacts/e2e/activation.json for the benchmarks, with the same activations timed inside the
// extension host (support/timeActivation.cjs) at a finer resolution than VS Code's whole milliseconds.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import {
  artifactsDir,
  buildPlanwiseVsix,
  fixturesDir,
  openWorkbench,
  packFixtureExtension,
  readActivationTimes,
  readExthostActivations,
  startCodeServer,
  type BuiltVsix,
  type CodeServer,
  type Workbench,
} from './harness';
import { endScenario, readJsonLines, screenshotOnFailure } from './support/artifacts';
import { greetingPlan, makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript } from './support/modelScript';
import {
  Panel,
  filesUnder,
  paletteEntries,
  planwiseLogFiles,
  planwiseSettings,
  readAll,
  reloadWindow,
  setApiKey,
  startPlanning,
  widenSidebar,
} from './support/ui';

/** Distinctive, and shaped like no known key format, so only Planwise's own care keeps it out of text. */
const KEY = `pwe2e${randomBytes(12).toString('hex')}`;
const TASK = 'Make the greeting friendlier after a reload';
/** Starts of the extension host whose activation time is recorded (the median goes to the benchmarks). */
const ACTIVATION_STARTS = 9;
/** One activation timed in the extension host by support/timeActivation.cjs. */
interface TimedActivation {
  readonly extension: 'planwise' | 'empty';
  readonly loadMs: number;
  readonly activateMs: number;
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;

describe('e2e: reload mid-plan and the API key (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;
  let floor: BuiltVsix | undefined;
  let logDir: string;
  /** One JSON line per activation of either extension, timed in the extension host (support/timeActivation.cjs). */
  let activationLog: string;

  before(async function () {
    ws = makeWorkspace();
    model = await ModelScript.start({ apiKey: KEY });
    floor = packFixtureExtension(path.join(fixturesDir, 'activation-floor'));
    logDir = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-activation-'));
    activationLog = path.join(logDir, 'activations.jsonl');
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [buildPlanwiseVsix().file, floor.file],
      settings: planwiseSettings(model.baseURL),
      env: {
        NODE_OPTIONS: `--require ${path.join(__dirname, 'support', 'timeActivation.cjs')}`,
        PLANWISE_E2E_ACTIVATION_LOG: activationLog,
      },
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('reload', { server, wb, model, ws }, logDir, floor && path.dirname(floor.file));
  });

  it('6. the key set in the password box is sent as the bearer token; a reload brings the pending gate back', async function () {
    assert.ok(wb && server);
    await setApiKey(wb, KEY);
    model.push(sse.toolTurn([{ name: 'read_file', args: { path: 'greet.js' } }]), planTurn(greetingPlan()));
    await startPlanning(wb, TASK);
    await widenSidebar(wb, 470);
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    assert.equal(model.requests.length, 2);
    model.assertDrained();
    assert.deepEqual(
      model.server.otherRequests.filter((r) => r.path.endsWith('/chat/completions')),
      [],
    );

    // Reload mid-plan, with the gate open: the restored panel brings the session back by itself.
    await reloadWindow(wb);
    const gate = await panel.waitFor('.pw-gate', { text: 'Greet with Hello' });
    assert.match(await gate.innerText(), /Ready to code\?/);
    await panel.waitFor('.pw-user', { text: TASK });
    await panel.waitFor('.pw-plan-card', { text: 'Greet with Hello' });
    await wb.screenshot('e2e-12-after-reload');
    // The context keys came back too: the palette offers the gate's commands.
    const palette = await paletteEntries(wb, 'Planwise:');
    assert.ok(palette.includes('Planwise: Approve Plan'), `palette after reload: ${palette.join('; ')}`);

    // Approve from the palette: the build's request still carries the key (secret storage survived the reload).
    const mark = model.mark();
    model.push(sse.textTurn('Nothing needed changing.'));
    await wb.runCommand('Planwise: Approve Plan');
    await model.waitForRequests(mark + 1);
    await panel.waitFor('.pw-assistant', { text: 'Nothing needed changing.' });
    model.assertDrained();
    for (const r of model.requests) assert.equal(r.headers.authorization, `Bearer ${KEY}`, `request ${r.n}`);

    // …and nowhere else.
    await wb.runCommand('Planwise: Show Log');
    await wb.page.waitForTimeout(1500); // the log service writes its files a moment later
    const settings = readFileSync(path.join(server.userDataDir, 'User', 'settings.json'), 'utf8');
    assert.ok(!settings.includes(KEY), 'the key is in settings.json');
    const planwiseLogs = planwiseLogFiles(server.userDataDir);
    assert.ok(planwiseLogs.length > 0, 'no Planwise log file was written');
    const planwiseLog = readAll(planwiseLogs);
    assert.match(planwiseLog, /API key stored in secret storage/);
    assert.ok(!planwiseLog.includes(KEY), 'the key is in the Planwise log');
    const logs = filesUnder(path.join(server.userDataDir, 'logs'));
    assert.deepEqual(
      logs.filter((f) => readFileSync(f, 'utf8').includes(KEY)),
      [],
      'the key is in a workbench log',
    );
    const archives = filesUnder(path.join(server.userDataDir, 'User', 'workspaceStorage'), /planwise/);
    assert.ok(
      archives.some((f) => f.endsWith('.jsonl') || /sessions/.test(f)),
      `no session archive: ${archives.join(', ')}`,
    );
    assert.deepEqual(
      archives.filter((f) => readFileSync(f, 'utf8').includes(KEY)),
      [],
      'the key is in a session archive',
    );
    assert.deepEqual(
      filesUnder(ws.root).filter((f) => readFileSync(f, 'utf8').includes(KEY)),
      [],
      'the key is in a workspace file',
    );
    assert.ok(!(await panel.html()).includes(KEY), "the key is in the panel's DOM");
    assert.ok(!(await wb.page.content()).includes(KEY), "the key is in the workbench's DOM");
  });

  it(`records Planwise's activation time over ${ACTIVATION_STARTS} starts, next to an empty extension's`, async function () {
    assert.ok(wb && server);
    const planwise: number[] = [];
    const empty: number[] = [];
    // The same activations timed in the extension host, at a microsecond's resolution.
    const timed = { planwise: [] as number[], empty: [] as number[] };
    const activationRecords = (): TimedActivation[] => readJsonLines<TimedActivation>(activationLog);
    // Start from a quiet window: no editors (whose languages would activate other extensions
    // alongside), and the Explorer in the side bar, so a restored Planwise view does not activate it.
    await wb.runCommand('View: Show Explorer');
    for (let i = 0; i < ACTIVATION_STARTS; i++) {
      await wb.runCommand('View: Close All Editors');
      // The palette offers "Hide Panel" only while the panel (here Show Log's output) is open.
      if (await wb.page.locator('.part.panel').isVisible()) await wb.runCommand('View: Hide Panel');
      await reloadWindow(wb);
      const seen = activationRecords().length;
      // Let the new extension host finish its own start-up: a command run at once waits behind it,
      // and both extensions then read the same few hundred ms.
      await wb.page.waitForTimeout(3000);
      // Both through a command, taking turns at going first.
      const commands = ['Activation Floor: Ping', 'Planwise: Show Log'];
      for (const title of i % 2 === 0 ? commands : commands.reverse()) await wb.runCommand(title);
      let times: { planwise?: number; floor?: number } = {};
      let names = '';
      for (let attempt = 0; attempt < 5 && (times.planwise === undefined || times.floor === undefined); attempt++) {
        if (attempt > 0) await wb.page.waitForTimeout(1000);
        const all = await readActivationTimes(wb);
        times = {
          planwise: all.find((t) => t.name === 'planwise')?.activationMs,
          floor: all.find((t) => t.name === 'activation-floor')?.activationMs,
        };
        names = all.map((t) => t.name).join(', ');
      }
      assert.ok(times.planwise !== undefined, `Planwise is not among the activated extensions: ${names}`);
      assert.ok(times.floor !== undefined, `the empty extension is not among the activated extensions: ${names}`);
      planwise.push(times.planwise);
      empty.push(times.floor);
      const fresh = activationRecords().slice(seen);
      for (const which of ['planwise', 'empty'] as const) {
        const records = fresh.filter((r) => r.extension === which);
        assert.equal(
          records.length,
          1,
          `${which} activated ${records.length} times in one start: ${JSON.stringify(fresh)}`,
        );
        timed[which].push(round3(records[0]!.loadMs + records[0]!.activateMs));
      }
    }
    await wb.screenshot('e2e-13-running-extensions');
    // Each start activated both by their commands, not by a view or at startup.
    const events = readExthostActivations(server.userDataDir).filter((a) =>
      ['planwise.planwise', 'planwise-test.activation-floor'].includes(a.id),
    );
    const byCommand = (id: string, command: string) =>
      events.filter((a) => a.id === id && a.activationEvent === `onCommand:${command}`).length;
    assert.ok(byCommand('planwise.planwise', 'planwise.showLog') >= ACTIVATION_STARTS, JSON.stringify(events));
    assert.ok(byCommand('planwise-test.activation-floor', 'activationFloor.ping') >= ACTIVATION_STARTS);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const planwiseMedian = median(planwise);
    const emptyMedian = median(empty);
    // VS Code reports whole milliseconds: an empty extension can read 0 ms, so the floor is at least 1.
    const ratio = Math.round((planwiseMedian / Math.max(1, emptyMedian)) * 100) / 100;
    const timedMedians = { planwise: round3(median(timed.planwise)), empty: round3(median(timed.empty)) };
    const timedRatio = Math.round((timedMedians.planwise / timedMedians.empty) * 100) / 100;
    mkdirSync(artifactsDir, { recursive: true });
    writeFileSync(
      path.join(artifactsDir, 'activation.json'),
      JSON.stringify(
        {
          planwiseActivationMs: planwise,
          emptyExtensionActivationMs: empty,
          ratio,
          median: planwiseMedian,
          emptyMedian,
          activatedBy: { planwise: 'onCommand:planwise.showLog', empty: 'onCommand:activationFloor.ping' },
          // What VS Code's figure counts (loading the main file, calling activate()), timed in the
          // extension host at a microsecond's resolution: VS Code's own figure is in whole
          // milliseconds, one of which moves the ratio by 0.3x to 1x at a floor of 1 to 3 ms.
          inProcess: {
            planwiseMs: timed.planwise,
            emptyExtensionMs: timed.empty,
            median: timedMedians.planwise,
            emptyMedian: timedMedians.empty,
            ratio: timedRatio,
          },
        },
        null,
        2,
      ) + '\n',
    );
    console.log(
      `      activation (ms): Planwise ${planwise.join(', ')} (median ${planwiseMedian}); ` +
        `empty extension ${empty.join(', ')} (median ${emptyMedian}); ratio ${ratio}; ` +
        `timed in the extension host: ${timedMedians.planwise} vs ${timedMedians.empty} ms (${timedRatio}x)`,
    );
  });
});
