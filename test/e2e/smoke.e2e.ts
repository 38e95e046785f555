// Smoke scenario of the end-to-end harness: code-server boots with the packaged Planwise VSIX
// installed, the workbench renders in Chromium, the palette runs commands, webview views are
// reachable, activation times are readable, and screenshots are saved. The packaged-VSIX scenario
// runs twice: in the current code-server (the one every scenario runs in) and in the minimum one
// (VS Code 1.100, the lowest `engines.vscode` allows), so the lowest supported VS Code stays covered.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  artifactsDir,
  buildPlanwiseVsix,
  fixturesDir,
  listExtensions,
  openWorkbench,
  packFixtureExtension,
  readActivationTimes,
  readExthostActivations,
  repoRoot,
  startCodeServer,
  VSCODE_VERSIONS,
  type BuiltVsix,
  type CodeServer,
  type CodeServerInstall,
  type Workbench,
} from './harness';
import { listZipEntries } from './harness/zip';

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  version: string;
};
const planwiseId = `${pkg.publisher}.${pkg.name}`;

/** timings.json for the current install (as before), timings-minimum.json for the minimum one. */
function recordTimings(install: CodeServerInstall, timings: Record<string, number>): void {
  mkdirSync(artifactsDir, { recursive: true });
  const file = install === 'current' ? 'timings.json' : `timings-${install}.json`;
  writeFileSync(path.join(artifactsDir, file), JSON.stringify(timings, null, 2) + '\n');
  console.log(`      timings (ms): ${JSON.stringify(timings)}`);
}

for (const install of ['current', 'minimum'] as const)
  describe(`e2e smoke: real VS Code ${VSCODE_VERSIONS[install]} (${install}) with the packaged VSIX`, function () {
    const timings: Record<string, number> = {};
    /** Screenshots of the minimum install carry its name, so the two runs do not overwrite each other. */
    const shotName = (name: string): string => (install === 'current' ? name : `${name}-${install}`);
    let vsix: BuiltVsix;
    let probe: BuiltVsix;
    let workspace: string;
    let server: CodeServer | undefined;
    let wb: Workbench | undefined;

    before(function () {
      const t0 = Date.now();
      vsix = buildPlanwiseVsix();
      timings.packageMs = Date.now() - t0;
      probe = packFixtureExtension(path.join(fixturesDir, 'webview-probe'));
      workspace = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-ws-'));
      writeFileSync(path.join(workspace, 'hello.txt'), 'hello from the smoke scenario\n');
    });

    after(async function () {
      await wb?.close();
      await server?.stop();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(path.dirname(probe.file), { recursive: true, force: true });
      recordTimings(install, timings);
    });

    it('packages a VSIX holding only what runs', function () {
      const names = listZipEntries(vsix.file).map((e) => e.name);
      console.log(`      VSIX: ${vsix.bytes} bytes, ${names.length} entries`);
      assert.ok(names.includes('extension/package.json'), `no package.json in ${names.join(', ')}`);
      assert.ok(names.includes('extension/dist/extension.js'), `no dist/extension.js in ${names.join(', ')}`);
      const allowed = [
        /^\[Content_Types\]\.xml$/,
        /^extension\.vsixmanifest$/,
        /^extension\/package\.json$/,
        /^extension\/(readme|changelog)\.md$/i,
        /^extension\/LICENSE(\.txt)?$/,
        /^extension\/dist\/[^/]+\.js$/,
        // Their module type, so Node does not read the manifest above to learn it.
        /^extension\/dist\/package\.json$/,
        /^extension\/media\/.+\.(js|css|ttf|woff2?|png|svg|gif|jpg)$/,
        // The walkthrough's images.
        /^extension\/docs\/[^/]+\.png$/,
      ];
      const unexpected = names.filter((n) => !allowed.some((re) => re.test(n)));
      assert.deepEqual(unexpected, [], 'files that do not run were packaged');
    });

    it('boots code-server with the VSIX installed through --install-extension', async function () {
      server = await startCodeServer({ install, workspace, vsix: [vsix.file, probe.file] });
      timings.serverBootMs = server.bootMs;
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const installed = listExtensions(server);
      assert.ok(installed.includes(`${planwiseId}@${pkg.version}`), `installed: ${installed.join(', ')}`);
      assert.ok(installed.includes('planwise-test.webview-probe@0.0.1'), `installed: ${installed.join(', ')}`);
    });

    it('renders the workbench with the workspace in Chromium', async function () {
      assert.ok(server, 'the server did not start');
      wb = await openWorkbench(server);
      timings.workbenchRenderMs = wb.renderMs;
      timings.bootPlusRenderMs = server.bootMs + wb.renderMs;
      await wb.page.locator('.explorer-folders-view').getByText('hello.txt').waitFor({ state: 'visible' });
      const shot = await wb.screenshot(shotName('smoke-01-workbench'));
      assert.ok(statSync(shot).size > 10_000, `screenshot ${shot} is suspiciously small`);
    });

    it('runs a built-in command from the command palette', async function () {
      assert.ok(wb, 'the workbench did not open');
      const terminal = wb.page.locator('.part.panel .terminal-wrapper');
      assert.equal(await terminal.isVisible(), false, 'the terminal was open before the command ran');
      await wb.runCommand('View: Toggle Terminal');
      await terminal.first().waitFor({ state: 'visible' });
      await wb.screenshot(shotName('smoke-02-terminal'));
      await wb.runCommand('View: Hide Panel');
      await terminal.first().waitFor({ state: 'hidden' });
    });

    it('reports a helpful error for a command the palette does not have', async function () {
      assert.ok(wb, 'the workbench did not open');
      await assert.rejects(
        wb.runCommand('No Such Command: Really', { timeoutMs: 3000 }),
        /has no command "No Such Command/,
      );
    });

    it("runs an installed extension's command: notification and status bar", async function () {
      assert.ok(wb, 'the workbench did not open');
      await wb.runCommand('Webview Probe: Say Hello');
      assert.equal(await wb.waitForNotification(/Hello from the webview probe/), 'Hello from the webview probe');
      await wb.page.locator('.part.statusbar').getByText('Probe: greeted').waitFor({ state: 'visible' });
      assert.match(await wb.statusBarText(), /Probe: greeted/);
      await wb.screenshot(shotName('smoke-03-notification'));
    });

    it("reaches a webview view's content frame and exchanges messages with it", async function () {
      assert.ok(wb, 'the workbench did not open');
      await wb.runCommand('Webview Probe: Focus on Probe Panel View');
      const frame = await wb.webviewFrame('Probe Panel');
      assert.equal(await frame.locator('#probe-title').innerText(), 'Probe webview says hello');
      await frame.getByRole('button', { name: 'Click me' }).click();
      await wb.waitForNotification(/Probe button clicked/);
      await wb.screenshot(shotName('smoke-04-webview'));
    });

    it('reads activation times from the Running Extensions editor and the extension host log', async function () {
      assert.ok(wb && server, 'the workbench did not open');
      const times = await readActivationTimes(wb);
      await wb.screenshot(shotName('smoke-05-running-extensions'));
      const probeTime = times.find((t) => t.name === 'webview-probe');
      assert.ok(probeTime, `webview-probe not among activated extensions: ${times.map((t) => t.name).join(', ')}`);
      assert.equal(probeTime.displayName, 'Webview Probe');
      timings.probeActivationMs = probeTime.activationMs;
      const planwise = times.find((t) => t.name === pkg.name);
      if (planwise) timings.planwiseActivationMs = planwise.activationMs;
      console.log(`      activation (ms): ${times.map((t) => `${t.name}=${t.activationMs}`).join(', ')}`);

      const logged = readExthostActivations(server.userDataDir);
      const probeLog = logged.find((a) => a.id === 'planwise-test.webview-probe');
      assert.ok(probeLog, `no activation of the probe in the extension host log: ${JSON.stringify(logged)}`);
      assert.equal(probeLog.activationEvent, 'onCommand:webviewProbe.hello');
      assert.equal(probeLog.startup, false);
    });
  });

describe('e2e smoke: untrusted workspace', function () {
  let workspace: string;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;

  before(function () {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-ws-'));
  });

  after(async function () {
    await wb?.close();
    await server?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('opens the folder in Restricted Mode when trustWorkspace is false', async function () {
    server = await startCodeServer({ workspace, trustWorkspace: false });
    wb = await openWorkbench(server);
    await wb.page.locator('.part.statusbar').getByText('Restricted Mode').waitFor({ state: 'visible' });
    assert.match(await wb.statusBarText(), /Restricted Mode/);
    await wb.screenshot('smoke-06-restricted-mode');
  });

  it('removes its temporary folders on stop', async function () {
    assert.ok(server, 'the server did not start');
    const root = path.dirname(server.userDataDir);
    assert.ok(existsSync(root));
    await wb?.close();
    wb = undefined;
    await server.stop();
    assert.equal(existsSync(root), process.env.PLANWISE_E2E_KEEP ? true : false);
  });
});
