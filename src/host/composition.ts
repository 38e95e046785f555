/**
 * The composition root of the VS Code host, loaded on first use (a command, the panel, a plan
 * file's lenses). Every object is built here once and handed to the others by constructor
 * injection. The engine and the OpenAI client load later still, with the first session.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { EXEC_ENV } from '../core/api/basics';
import type { ScopeRequest } from '../core/api/ports';
import { allowListProblems } from '../core/api/gate';
import { FileArchiveStore } from '../node/fileArchiveStore';
import { FileCheckpointStore } from '../node/fileCheckpointStore';
import { scrubbedEnv } from '../node/env';
import { NodeCommandRunner } from '../node/processRunner';
import { createSearcher, isExecutableFile } from '../node/ripgrepSearcher';
import { systemClock } from '../node/clock';
import { RedactingArchiveStore } from './adapters/redactingArchive';
import { findBundledRipgrep } from './adapters/ripgrep';
import { TerminalCommandRunner, agentTerminalEnv } from './adapters/terminalRunner';
import { vscodeTerminalHost } from './adapters/vscodeTerminalHost';
import { WorkspacePartsCache } from './workspaceParts';
import { provideLenses, type LensSource } from './codelens/provider';
import { lensRefresh } from './codelens/lensRefresh';
import { hostLensSource } from './codelens/lensSource';
import { runHostCommand, type HostCommandKey } from './commands/table';
import type { HostServices } from './commands/services';
import type { Essentials } from './essentials';
import { ContextKeySync } from './contextKeySync';
import { DisposableStore } from './disposables';
import { adviceForModelError } from './errors';
import { FOCUS_PANEL_COMMAND, TERMINAL_NAME } from './ids';
import { describeError } from './log';
import { createPanelActions } from './panel/actions';
import { panelFlags } from './panel/flags';
import { syncFlags } from './panel/flagSync';
import type { PanelHub } from './panel/hub';
import type { PanelParts } from './panel/parts';
import { createRouter, type MessageRouter } from './panel/router';
import { EventTranslator } from './panel/translate';
import { HostApprover } from './prompts/hostApprover';
import { HostInterviewer } from './prompts/hostInterviewer';
import { NativePrompts, vscodeCommandUi } from './prompts/native';
import { askCommandQuestion } from './prompts/commandQuestion';
import { PendingRequests } from './prompts/pending';
import { SessionController } from './session/controller';
import { autoResume } from './session/autoResume';
import { currentPlanFile } from './session/currentPlan';
import { sessionEventHooks } from './session/eventHooks';
import { createEngineAccess } from './session/engine';
import { watchPlanFiles } from './session/planFileWatcher';
import { HostPlans } from './session/hostPlans';
import { BudgetStatusBar } from './status/statusBar';
import { syncSurfaces } from './status/surfaceSync';
import type { GrantAsk } from './status/format';
import { RetryCountdown } from './status/retryCountdown';
import { vscodeLmModel } from './adapters/vscodeLmProvider';
import { TrustGatedRunner } from './trust';
import { VerifyService } from './verify/verifyService';
import { hostVerifier } from './verify/hostVerifier';
import { ReviewComments } from './review/reviewComments';
import { SetupService } from './setup/setupService';
import { listModels } from './models';
import { VirtualDocuments } from './virtualDocuments';
import { vscodeLmModels } from './adapters/vscodeLmProvider';

/** Built in `activate()` (cheap: the essentials) and shared with the lazily loaded host. */
export interface SharedParts extends Pick<
  Essentials,
  'context' | 'config' | 'log' | 'keys' | 'trust' | 'lensChanged' | 'showAdvice'
> {
  /**
   * The panel's view and state (dist/panel.js), built when the view first resolves or when this
   * host is composed, whichever comes first: the first page is written before this bundle loads.
   */
  readonly panel: PanelParts;
}

export interface Host extends vscode.Disposable {
  /** Handles one message from the panel's webview. */
  readonly route: MessageRouter;
  readonly lenses: LensSource;
  /** The CodeLenses of a plan file (the lens code and the plan validator live here, not in activation). */
  provideLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]>;
  run(key: HostCommandKey, args: readonly unknown[]): Promise<unknown>;
}

export function composeHost(shared: SharedParts): Host {
  const { context, config, log, keys, trust, lensChanged, showAdvice } = shared;
  const { hub, view: panel } = shared.panel;
  const store = new DisposableStore();

  // ---- workspace ports (rebuilt when the folders change) ------------------------------------
  const workspaceParts = new WorkspacePartsCache(config);
  const roots = () => workspaceParts.roots();
  const ws = () => workspaceParts.get();
  const relativePath = (p: string) => (roots().length > 0 ? ws().planFiles.relative(p) : p);

  // ---- panel state, prompts -----------------------------------------------------------------
  const flags = () => panelFlags({ keys, config, trust });
  const translator = new EventTranslator({ relativePath, takesKey: () => config.settings.provider !== 'vscode-lm' });
  const pending = new PendingRequests();
  store.addCallback(() => pending.closeAll('Planwise is shutting down'));
  // `panel` and `controller` are built below; these closures run only after that.
  const native = new NativePrompts(pending, (d, fb, id) => controller.decide(d, fb, id));
  const surface = {
    panelVisible: () => panel.visible,
    update: (ops: Parameters<PanelHub['update']>[0]) => hub.update(ops),
    offerNative: (id: string, prompt: Parameters<NativePrompts['offer']>[1]) => native.offer(id, prompt),
    confirmCommand: (command: string, reason: string) =>
      askCommandQuestion(command, reason, {
        ui: vscodeCommandUi,
        entryProblem: (entry) => allowListProblems([entry])[0]?.problem,
        addToAllowList: (entry) => config.addToAllowList(entry),
      }),
    confirmScope: (request: ScopeRequest) => native.confirmScope(request),
  };
  const approver = new HostApprover({ pending, surface, relativePath });
  const interviewer = new HostInterviewer(pending, surface);

  // ---- shell, search, archive, verify -------------------------------------------------------
  const terminalRunner = store.add(
    new TerminalCommandRunner(vscodeTerminalHost, new NodeCommandRunner(), {
      name: TERMINAL_NAME,
      env: agentTerminalEnv(process.env, EXEC_ENV, scrubbedEnv),
      log: (l) => log.info(l),
    }),
  );
  const runner = new TrustGatedRunner(trust, terminalRunner);
  const rgPath = findBundledRipgrep(vscode.env.appRoot, isExecutableFile);
  log.debug(
    rgPath
      ? `search: VS Code's ripgrep at ${rgPath}`
      : "search: VS Code's ripgrep not found; using rg on PATH or the JavaScript search",
  );
  const storage = context.storageUri ?? context.globalStorageUri;
  const archive = new RedactingArchiveStore(new FileArchiveStore(join(storage.fsPath, 'sessions')), () => keys.known);
  // Build checkpoints beside the archive, in the extension's storage (never the workspace or its git).
  const checkpoints = (id: string) => new FileCheckpointStore(join(storage.fsPath, 'sessions'), id);
  // A revert's diff, shown read-only under its own scheme (never an unsaved Untitled buffer).
  const readOnlyDocs = store.add(new VirtualDocuments('planwise-revert'));
  // The engine's one verify runner, built on first use.
  const verifier = hostVerifier({ trust, ws, settings: () => config.settings, log });
  store.addCallback(() => verifier.cancelAll());
  // The workspace's plans, one owner for every surface and session.
  const hostPlans = new HostPlans({
    parts: () => ws(),
    root: () => roots()[0]!,
    plansDir: () => config.settings.plansDirectory,
    verifier: () => verifier.get(),
    log: (line) => log.warn(line),
    onChange: (c) => {
      lensChanged.fire();
      review.planChanged(c);
    },
    onReview: (e) => review.onEvent(e),
  });
  store.addCallback(() => hostPlans.dispose());
  const plans = () => hostPlans.get();
  const verify = new VerifyService({
    get verifier() {
      return verifier.get();
    },
    trust,
    read: (file) => ws().planFiles.read(file),
    parse: (markdown) => plans().parse(markdown),
    trackerOf: async (file) =>
      (
        await plans()
          .plan(file)
          .catch(() => undefined)
      )?.tracker,
    approver,
  });

  // ---- engine and session -------------------------------------------------------------------
  // A retry's wait, counted down in the status bar and in the panel's notice for it.
  const countdown = store.add(
    new RetryCountdown({ patchNotice: (id, text) => hub.update([{ op: 'item.patch', id, patch: { text } }]) }),
  );
  const engine = createEngineAccess({
    deps: () => {
      const w = ws();
      return {
        reader: w.reader,
        gateFs: w.gateFs,
        writer: w.writer,
        editWriter: w.editWriter,
        searcher: createSearcher(w.reader, rgPath),
        runner,
        verifier: verifier.get(),
        plans: plans(),
        clock: systemClock,
        interviewer,
        approver,
        archive,
        checkpoints,
        log: (line) => log.debug(line),
      };
    },
    settings: () => config.settings,
    trusted: () => trust.trusted,
    apiKey: () => keys.get(),
    observer: {
      debug: (line) => log.debug(line),
      // The panel shows the failure inline with Retry; a toast only when the panel is not in view.
      onError: (err) => {
        if (panel.visible) return;
        showAdvice(adviceForModelError(err, config.settings.baseUrl, keys.known.length > 0, config.settings.provider));
      },
      onRetry: (e) => countdown.show(e),
      onSettled: () => countdown.hide(),
    },
    providerModel: (settings) => vscodeLmModel(settings, (line) => log.debug(`vscode.lm: ${line}`)),
    log: (line) => log.debug(line),
    env: process.env,
  });
  // ---- the setup card: where models come from ------------------------------------------------
  const setup = new SetupService({
    settings: () => config.settings,
    update: (key, value) => config.update(key, value),
    hasKey: () => keys.known.length > 0,
    apiKey: () => keys.get(),
    listModels: (url, key) => listModels(url, key),
    lmModels: () => vscodeLmModels(),
    show: (state) => hub.update([{ op: 'setup.set', setup: state }]),
  });
  const controller: SessionController = new SessionController({
    engine,
    hub,
    translator,
    pending,
    flags,
    log,
    onEvent: sessionEventHooks({
      retryNotice: () => translator.retryNotice,
      countdown,
      review: () => review,
      pending,
      view: hub,
      relativePath,
    }),
  });
  store.add(controller);
  // ---- plan review: comment threads on plan files, hand edits at the gate -------------------
  const review = store.add(
    new ReviewComments({
      session: () => controller.current,
      plans: () => (roots().length > 0 ? plans() : undefined),
      isPlanFile: (p) => roots().length > 0 && ws().planFiles.isPlanFile(p),
      requestChanges: (note) => controller.decide('revise', note),
      changed: () => lensChanged.fire(),
      log,
    }),
  );
  const services: HostServices = {
    review,
    controller,
    pending,
    native,
    get planFiles() {
      return ws().planFiles;
    },
    plans,
    verify,
    archive,
    checkpoints,
    readOnlyDocs,
    trust,
    log,
    showAdvice,
    focusPanel: async () => {
      await vscode.commands.executeCommand(FOCUS_PANEL_COMMAND);
    },
    setup,
    trustWorkspace: async () => {
      await vscode.commands.executeCommand('workbench.trust.manage');
    },
    changeProvider: async () => {
      await vscode.commands.executeCommand(FOCUS_PANEL_COMMAND);
      setup.open('requested');
    },
    currentPlan: () => currentPlanFile(controller.current?.planFile, () => ws().planFiles),
  };

  // ---- the panel ----------------------------------------------------------------------------
  const route = createRouter(
    { actions: createPanelActions(services, hub), log },
    {
      onError: (message, err) =>
        void vscode.window.showErrorMessage(
          `Planwise: "${message.type}" failed: ${err instanceof Error ? err.message : String(err)}`,
        ),
    },
  );

  // ---- status bar, context keys, flags, lenses ----------------------------------------------
  const statusBar = store.add(new BudgetStatusBar());
  const contextKeys = new ContextKeySync((k, v) => vscode.commands.executeCommand('setContext', k, v));
  const surfaces = store.add(
    syncSurfaces({
      controller,
      grantAsk: () => (pending.first('grantMore')?.data as GrantAsk | undefined) ?? null,
      changes: [(l) => controller.onSessionEvent(l), (l) => controller.onDidChange(l), (l) => pending.onDidChange(l)],
      statusBar,
      contextKeys,
      lensesChanged: () => lensChanged.fire(),
    }),
  );
  store.add(
    syncFlags({
      flags,
      update: (ops) => hub.update(ops),
      keys,
      config,
      trust,
      setup,
      lensesChanged: () => lensChanged.fire(),
      log,
    }),
  );
  store.add(lensRefresh({ verifier, fire: () => lensChanged.fire() }));
  store.add(
    watchPlanFiles({
      watcher: vscode.workspace.createFileSystemWatcher('**/*.md'),
      onDidChangeWorkspaceFolders: (l) => vscode.workspace.onDidChangeWorkspaceFolders(l),
      hasFolder: () => roots().length > 0,
      isPlanFile: (p) => ws().planFiles.isPlanFile(p),
      anyPlan: async () => (await ws().planFiles.newest()) !== undefined,
      lensesChanged: () => lensChanged.fire(),
      planChanged: (file) => hostPlans.changedOnDisk(file),
      onPlansOnDisk: (any) => surfaces.plansOnDisk(any),
    }),
  );

  const lenses = hostLensSource({
    trust,
    plans,
    session: () => controller.current,
    isPlanFile: (file) => roots().length > 0 && ws().planFiles.isPlanFile(file),
  });

  // A reload mid-plan brings the session back, with its pending approval or question.
  store.add(
    autoResume({
      controller,
      state: context.workspaceState,
      log,
      describeError,
      awaitingCheck: () => controller.current?.standing.tracker?.awaitingCheck === true,
    }),
  );

  log.info('Planwise host ready');
  return {
    route,
    lenses,
    provideLenses: (doc) => provideLenses(lenses, doc),
    run: (key, args) => runHostCommand(services, key, args),
    dispose: () => store.dispose(),
  };
}
