/**
 * End-to-end harness: a real VS Code (code-server 4.106.3 = VS Code 1.106.3, and 4.100.3 = VS Code
 * 1.100.3 for the minimum-version smoke, installed from npm into .e2e-cache/ by `npm run e2e:setup`)
 * driven by Debian's Chromium through playwright-core. Nothing is
 * downloaded at test time and nothing listens beyond 127.0.0.1.
 *
 * Running: `npm run test:e2e` (runs the setup, then mocha with .mocharc.e2e.cjs over test/e2e/*.e2e.ts).
 * Screenshots go to test-artifacts/e2e/ (git-ignored). PLANWISE_E2E_KEEP=1 keeps each server's temp
 * folders (user data, logs, extensions); PLANWISE_CHROMIUM overrides the browser; PLANWISE_E2E_VSIX
 * installs a ready-made VSIX instead of running `npm run package`.
 *
 * ## Server
 *
 *   const server = await startCodeServer({ workspace, vsix, settings, trustWorkspace, env });
 *   // -> { url, workspace, userDataDir, extensionsDir, bootMs, logs(), stop() }
 *
 * - `workspace`: folder to open (make it with fs.mkdtempSync and remove it yourself).
 * - `vsix`: path(s) installed with `code-server --install-extension` before the server starts, into a
 *   fresh extensions folder: the scenario runs the installed VSIX, never a development path.
 * - `settings`: merged over DEFAULT_SETTINGS (no welcome page, no telemetry, no update checks, git off)
 *   into `<userDataDir>/User/settings.json`. Point Planwise at a scripted model server here.
 * - `trustWorkspace` (default true): true passes `--disable-workspace-trust` (everything trusted);
 *   false enables workspace trust with `startupPrompt: never`, so the folder opens in Restricted Mode.
 * - `env`: extra environment for the server and so for the extension host.
 * - `args`: extra code-server arguments, e.g. `['--enable-proposed-api', 'planwise-test.scripted-lm']`.
 * - `logs()`: the server's own output; the workbench logs are in `<userDataDir>/logs/<stamp>/`
 *   (`remoteagent.log`, `ptyhost.log`, `exthost1/remoteexthost.log`, and one folder per extension
 *   output channel under `exthost1/<publisher.name>/`). Read them before `stop()`, which deletes
 *   the temp folders (unless PLANWISE_E2E_KEEP is set).
 * - `install`: `'current'` (the default): code-server 4.106.3 (VS Code 1.106.3) on the test-only
 *   Node 22 in .e2e-cache/, the VS Code with the final `lm.registerLanguageModelChatProvider` (the
 *   vscodeLm scenario uses it, with ../fixtures/scripted-lm as the model provider); or `'minimum'`:
 *   code-server 4.100.3 (VS Code 1.100.3, the lowest `engines.vscode` allows), where smoke.e2e.ts
 *   runs its packaged-VSIX scenario a second time.
 * - `listExtensions(server)`: `code-server --list-extensions --show-versions`, e.g. ["planwise.planwise@0.1.0"].
 *
 * ## Workbench
 *
 *   const wb = await openWorkbench(server);
 *   // -> { browser, page, renderMs, runCommand, screenshot, waitForNotification, statusBarText,
 *   //      webviewFrame, consoleErrors, close }
 *
 * - Resolves once the status bar and activity bar are visible (`renderMs` measures it).
 * - `runCommand("View: Toggle Terminal")`: F1 (falls back to Ctrl+Shift+P), fills the palette with
 *   ">title", waits for the row whose label is exactly the title (`.quick-input-list .monaco-list-row
 *   .label-name`) and clicks it. Use the label as the palette shows it: "Category: Title". It waits
 *   for the command's registration, so it also works right after load. When the command opens an
 *   input box, the box is then `page.locator(SELECTORS.quickInputBox)`: `fill()` it and press Enter.
 * - `screenshot("01-planning")` -> test-artifacts/e2e/01-planning.png (returns the path).
 * - `waitForNotification(/Plan saved/)`: waits for a toast (`.notifications-toasts .notification-toast`)
 *   and returns its message.
 * - `statusBarText()`: the visible status bar items joined with " | ", e.g. "Probe: ready | 0 0 | Layout: us".
 * - `webviewFrame("Planning")`: the inner frame of the webview view titled "Planning" (the view must
 *   be open; focus it with runCommand("<Container>: Focus on <View> View")). Query it like a page:
 *   `frame.getByRole('button', { name: 'Approve' }).click()`. Selector details in ./webview.ts. When the
 *   extension replaces the webview's HTML, the old frame is detached: call webviewFrame() again.
 *
 * ## Activation time (see ./activation.ts)
 *
 * - `readActivationTimes(wb)` opens "Developer: Show Running Extensions" and returns
 *   `[{ name, displayName, version, activationMs, startup }]` for every activated extension: the
 *   duration VS Code itself measured. Activate the extension first (run one of its commands or open
 *   its view), then read.
 * - `readExthostActivations(server.userDataDir)` parses the extension host log for when and by which
 *   event each extension was activated (`{ id, at, startup, activationEvent }`); no duration there.
 *
 * ## Planwise's scenarios
 *
 * planwise.e2e.ts (1–4), untrusted.e2e.ts (5) and reload.e2e.ts (6 and the activation time, written
 * to test-artifacts/e2e/activation.json) build on ../support/: `ModelScript` (the scripted model,
 * fed turn by turn), `Panel` (the Planwise panel's frame), palette, editor and CodeLens helpers, and
 * the greeting workspace the plans are about. A failed test leaves `failed-<title>.png`, and each
 * server's logs are copied to test-artifacts/e2e/logs/<name>/.
 *
 * ## Scenario skeleton
 *
 *   const { file } = buildPlanwiseVsix();            // npm run package, once per process
 *   const server = await startCodeServer({ workspace, vsix: file });
 *   const wb = await openWorkbench(server);
 *   try { await wb.runCommand('Planwise: Start Planning'); ... } finally { await wb.close(); await server.stop(); }
 */
export { startCodeServer, listExtensions, DEFAULT_SETTINGS } from './codeServer';
export type { CodeServer, CodeServerOptions } from './codeServer';
export { openWorkbench, SELECTORS, CHROMIUM_ARGS } from './workbench';
export type { Workbench } from './workbench';
export { readActivationTimes, readExthostActivations, parseActivationLabel, parseExthostLog } from './activation';
export type { ActivationTime, ExthostActivation } from './activation';
export { buildPlanwiseVsix, packFixtureExtension } from './vsix';
export type { BuiltVsix } from './vsix';
export {
  artifactsDir,
  fixturesDir,
  repoRoot,
  CODE_SERVER_VERSION,
  CODE_SERVER_VERSIONS,
  VSCODE_VERSIONS,
} from './paths';
export type { CodeServerInstall } from './paths';
