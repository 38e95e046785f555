/**
 * The VS Code host's engine wiring without VS Code: `createEngineAccess` (the interactive engine
 * the host really builds), the real `HostApprover` and `HostInterviewer` on the pending table, the
 * panel hub and translator, the controller, and one `Verifier` shared with the sessions, all over
 * real files in a temporary workspace and the real OpenAI SDK talking to a scripted server.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlanWorkspace, Verifier } from '../../src/core/index';
import { systemClock } from '../../src/node/clock';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { DEFAULT_SETTINGS, type PlanwiseSettings } from '../../src/host/config';
import { PanelHub } from '../../src/host/panel/hub';
import { EventTranslator } from '../../src/host/panel/translate';
import { HostApprover } from '../../src/host/prompts/hostApprover';
import { HostInterviewer } from '../../src/host/prompts/hostInterviewer';
import { PendingRequests } from '../../src/host/prompts/pending';
import { regate } from '../../src/host/prompts/regate';
import type { PromptSurface } from '../../src/host/prompts/surface';
import { SessionController } from '../../src/host/session/controller';
import { createEngineAccess } from '../../src/host/session/engine';
import { TrustState } from '../../src/host/trust';
import { VerifyService } from '../../src/host/verify/verifyService';
import { emptyViewState, type DeltaOp } from '../../src/protocol';
import { ScriptedServer, type Script } from '../support/scriptedServer';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { policyFor } from '../support/commandPolicy';

export interface EngineHost {
  readonly controller: SessionController;
  readonly hub: PanelHub;
  readonly pending: PendingRequests;
  readonly verifier: Verifier;
  readonly plans: PlanWorkspace;
  readonly verify: VerifyService;
  readonly server: ScriptedServer;
  readonly ws: TempWorkspace;
  readonly logs: string[];
  readonly archiveDir: string;
  close(): Promise<void>;
}

export async function startEngineHost(
  script: Script,
  opts: {
    files?: Record<string, string>;
    archiveDir?: string;
    ws?: TempWorkspace;
    /** Settings over the defaults, read at every use (a test may change them mid-session). */
    settings?: () => Partial<PlanwiseSettings>;
    /** The modal that asks about a command needing a yes (default: the person says no). */
    confirmCommand?: PromptSurface['confirmCommand'];
  } = {},
): Promise<EngineHost> {
  const server = await ScriptedServer.start(script);
  const ws = opts.ws ?? makeTempWorkspace(opts.files ?? { 'README.md': '# demo\n' });
  const archiveDir = opts.archiveDir ?? mkdtempSync(join(tmpdir(), 'planwise-host-archive-'));
  const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
  const pending = new PendingRequests();
  const logs: string[] = [];
  const relativePath = (p: string) => (p.startsWith(`${ws.root}/`) ? p.slice(ws.root.length + 1) : p);
  const surface: PromptSurface = {
    panelVisible: () => true,
    update: (ops: readonly DeltaOp[]) => hub.update(ops),
    offerNative: () => undefined,
    confirmCommand: opts.confirmCommand ?? (async () => false),
  };
  const trust = new TrustState(true);
  // The sample plans verify with `node -e …` scripts: this person allow-listed them (a test may set its own list).
  const setting = () => ({ ...DEFAULT_SETTINGS, buildCommandAllowList: ['node -e *'], ...opts.settings?.() });
  const verifier = new Verifier({
    runner: new NodeCommandRunner(),
    cwd: () => ws.root,
    now: Date.now,
    policy: () => ({ ...policyFor(ws.root)(), allowList: setting().buildCommandAllowList }),
  });
  // As the composition root does: one owner of the workspace's plans for every session and surface.
  const plans = new PlanWorkspace({
    reader: ws.reader,
    writer: new NodeWorkspaceWriter(),
    root: ws.root,
    now: Date.now,
    verifier,
  });
  const approver = new HostApprover({ pending, surface, relativePath });
  const engine = createEngineAccess({
    deps: () => ({
      reader: ws.reader,
      writer: new NodeWorkspaceWriter(),
      searcher: createSearcher(ws.reader),
      runner: new NodeCommandRunner(),
      verifier,
      plans,
      clock: systemClock,
      interviewer: new HostInterviewer(pending, surface),
      approver,
      archive: new FileArchiveStore(archiveDir),
      log: (l) => logs.push(l),
    }),
    settings: () => ({
      ...setting(),
      baseUrl: server.baseURL,
      planningModel: 'scripted-model',
      ...opts.settings?.(),
    }),
    trusted: () => true,
    apiKey: async () => undefined,
    observer: { debug: (l) => logs.push(l), onError: (e) => logs.push(`model error: ${String(e)}`) },
    log: (l) => logs.push(l),
  });
  const controller = new SessionController({
    engine,
    hub,
    translator: new EventTranslator({ relativePath }),
    pending,
    flags: () => ({ hasApiKey: false, keyRequired: false, trusted: true }),
    log: { info: (l) => logs.push(l), warn: (l) => logs.push(l), error: (l) => logs.push(l) },
    // As the composition root does: a gate announced again while open gives the request its new card.
    onEvent: (e) => {
      if (e.type === 'plan.approval.requested') regate(pending, hub, e, relativePath);
    },
  });
  const verify = new VerifyService({
    verifier,
    trust,
    read: async (f) => readFileSync(f, 'utf8'),
    parse: (markdown) => plans.parse(markdown),
    approver,
  });
  return {
    controller,
    hub,
    pending,
    verifier,
    plans,
    verify,
    server,
    ws,
    logs,
    archiveDir,
    close: async () => {
      controller.dispose();
      plans.dispose();
      verifier.cancelAll();
      await server.close();
      if (!opts.ws) ws.cleanup();
    },
  };
}

/** Waits until `ready()` holds (the engine runs on real I/O), or fails after `ms`. */
export async function until(ready: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
