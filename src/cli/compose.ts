/**
 * The CLI's one composition root: flags and environment become the Node adapters, the session's
 * `SessionDeps` and `SessionConfig`, the terminal prompts and the transcript renderer, all wired
 * by constructor injection. Commands parse nothing else and build nothing else.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ArchiveStore, ApprovalDecision, Approver, Interviewer } from '../core/api/ports';
import type { SessionConfig, SessionDeps, Session } from '../core/api/sessions';
import { systemClock } from '../node/clock';
import { readEndpointUrl } from '../node/endpointUrl';
import { clause } from '../node/messageText';
import { FileArchiveStore } from '../node/fileArchiveStore';
import { FileCheckpointStore } from '../node/fileCheckpointStore';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../node/fsWorkspace';
import { OpenAIModelClient } from '../node/openaiModelClient';
import { NodeCommandRunner } from '../node/processRunner';
import { lazyMcpClient } from '../node/lazyMcpClient';
import { createSearcher } from '../node/ripgrepSearcher';
import type { CliIO } from './io';
import { NonInteractiveApprover, ReviseOnce, TerminalApprover } from './prompts/approver';
import { TerminalInterviewer, nonInteractiveInterviewer } from './prompts/interviewer';
import { LineInput } from './prompts/lineInput';
import { JsonRenderer } from './render/json';
import { Printer } from './render/printer';
import { makeRedactor, type Redactor } from './render/redact';
import { colorEnabled, makeStyle, type Style } from './render/style';
import { TranscriptRenderer } from './render/transcript';
import { PlansOnScreen } from './render/plan';

/** The flags `plan` and `resume` share (parsed by `parseRunFlags` in commands/plan.ts). */
export interface RunFlags {
  readonly workspace?: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly buildModel?: string;
  readonly apiKeyEnv?: string;
  readonly json: boolean;
  /** true: --interactive, false: --non-interactive, undefined: interactive when stdin is a TTY. */
  readonly interactive?: boolean;
  readonly approve?: ApprovalDecision;
  readonly untrusted: boolean;
  readonly allowCommands: readonly string[];
  readonly contextWindow?: number;
  /** Seconds; the model client's first-byte and idle-stream timeouts. */
  readonly firstByteTimeout?: number;
  readonly idleTimeout?: number;
  /** Compact the request view past this share of the context window, in percent. */
  readonly compactAt?: number;
  /** `--strict-scope`: refuse build writes outside the plan's scope (else ask on a terminal, record headless). */
  readonly strictScope?: boolean;
  /** `--no-instructions`: the repository's instruction files are not read. */
  readonly noInstructions?: boolean;
  /** `--mcp-tool server/tool` (or `server/*`): MCP tools the person allows. */
  readonly mcpTools?: readonly string[];
  /** `--mcp-always server/tool`: allowed tools the build may call without asking. */
  readonly mcpAlways?: readonly string[];
  readonly verbose: boolean;
  readonly positionals: readonly string[];
}

export interface ModelSettings {
  readonly baseURL: string;
  readonly model: string;
  readonly buildModel?: string;
  readonly apiKey?: string;
  /** Environment variables that may hold the key; commands never see them. */
  readonly keyVariables: readonly string[];
  readonly maxRetries: number;
  readonly firstByteTimeoutMs: number;
  readonly idleTimeoutMs: number;
}

export const DEFAULT_BASE_URL = 'http://localhost:11434/v1';
/** Seconds, as in the extension's planwise.request.* settings. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
const DEFAULT_RETRIES = 3;

/** True for endpoints on this machine (127.0.0.0/8, localhost, ::1), which need no API key. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The model endpoint from flags, then environment, then defaults; or one sentence saying what is missing. */
export function resolveModelSettings(
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
): ModelSettings | { readonly error: string } {
  const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
  // `localhost:11434` (no scheme) is completed to http://localhost:11434/v1.
  const read = readEndpointUrl(nonEmpty(flags.baseUrl) ?? nonEmpty(env['OPENAI_BASE_URL']) ?? DEFAULT_BASE_URL);
  if (!read.ok) return { error: clause(read.error) };
  const baseURL = read.url;
  const url = new URL(baseURL);
  const model = nonEmpty(flags.model) ?? nonEmpty(env['PLANWISE_MODEL']);
  if (model === undefined) {
    return {
      error: 'no model given: pass --model ID or set PLANWISE_MODEL (for example PLANWISE_MODEL=qwen2.5-coder)',
    };
  }
  const buildModel = nonEmpty(flags.buildModel) ?? nonEmpty(env['PLANWISE_BUILD_MODEL']);
  const keyVar = flags.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = nonEmpty(env[keyVar]);
  if (apiKey === undefined && flags.apiKeyEnv !== undefined) {
    return { error: `--api-key-env names ${keyVar}, but the environment variable ${keyVar} is not set` };
  }
  if (apiKey === undefined && !isLoopback(url)) {
    return {
      error: `the endpoint ${baseURL} is not on this machine and no API key is set: set OPENAI_API_KEY, or name the variable that holds it with --api-key-env NAME`,
    };
  }
  const retriesText = nonEmpty(env['PLANWISE_MODEL_RETRIES']);
  const maxRetries = retriesText === undefined ? DEFAULT_RETRIES : Number(retriesText);
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10) {
    return { error: `PLANWISE_MODEL_RETRIES must be a whole number from 0 to 10, not '${retriesText ?? ''}'` };
  }
  return {
    baseURL,
    model,
    ...(buildModel !== undefined ? { buildModel } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    keyVariables: [...new Set(['OPENAI_API_KEY', keyVar])],
    maxRetries,
    firstByteTimeoutMs: (flags.firstByteTimeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    idleTimeoutMs: (flags.idleTimeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
  };
}

/**
 * What a 401 tells the person to set on the command line: the variable the key is read from, and
 * where the endpoint comes from, should the key be right and the endpoint wrong.
 */
export function cliAuthAdvice(apiKeyEnv: string | undefined): string {
  const key =
    apiKeyEnv === undefined
      ? 'Put the API key in the environment variable OPENAI_API_KEY (or name another variable with --api-key-env NAME)'
      : `Put the API key in the environment variable ${apiKeyEnv} (named by --api-key-env)`;
  return `${key}, or choose another endpoint with --base-url URL (or OPENAI_BASE_URL), then run again.`;
}

/** Session archives live beside the plans, one `<id>.jsonl` each. */
import { SESSIONS_DIR } from './builds';

export { SESSIONS_DIR };

/** Everything one `plan` or `resume` run works with. */
export interface CliRun {
  readonly root: string;
  readonly settings: ModelSettings;
  readonly deps: SessionDeps;
  readonly config: SessionConfig;
  readonly archive: FileArchiveStore;
  readonly json: boolean;
  /** Where the person reads prose: stdout, or stderr with `--json`. */
  readonly ui: Printer;
  readonly style: Style;
  /** Terminal input; undefined in non-interactive runs (stdin is never touched). */
  readonly input: LineInput | undefined;
  /** `--approve revise`: one revision is asked for at the first gate (see ReviseOnce). */
  readonly reviseOnce: ReviseOnce | undefined;
  /** Resolves with the plan file when the person leaves the gate without deciding. */
  readonly detached: Promise<string>;
  readonly redact: Redactor;
  /** Workspace-relative display form of a path. */
  shown(file: string): string;
  /** Sends the session's events to the transcript (or JSON lines). */
  attach(session: Session): void;
  /** Releases stdin. */
  close(): void;
}

/** Keeps the archive out of version control even when `.vtcode/plans` is committed. */
function ensureSessionsDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (!existsSync(ignore)) {
    writeFileSync(ignore, '# Planwise session archives: conversation transcripts, never commit them.\n*\n');
  }
}

/**
 * The archive as the engine sees it: every line passes the redactor on its way to disk, so a
 * provider error that quotes the key is archived masked.
 */
function redactingArchive(store: ArchiveStore, redact: Redactor): ArchiveStore {
  return {
    append: (id, line) => store.append(id, redact(line)),
    read: (id) => store.read(id),
    list: () => store.list(),
  };
}

/** The environment commands run with: this process's, minus the API key variables. */
function childEnv(io: CliIO, keyVars: readonly string[]): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...io.env };
  for (const name of keyVars) delete env[name];
  return env;
}

export function composeRun(flags: RunFlags, io: CliIO): CliRun | { readonly error: string } {
  const settings = resolveModelSettings(flags, io.env);
  if ('error' in settings) return settings;
  const wanted = path.resolve(io.cwd, flags.workspace ?? '.');
  let reader: NodeWorkspaceReader;
  try {
    reader = new NodeWorkspaceReader([wanted]);
  } catch {
    return { error: `the workspace '${wanted}' is not an existing directory` };
  }
  const root = reader.roots[0]!;

  const json = flags.json;
  const stdinTty = io.stdin.isTTY === true;
  const interactive = flags.interactive ?? stdinTty;
  const uiStream: NodeJS.WritableStream & { isTTY?: boolean } = json ? io.stderr : io.stdout;
  const redact = makeRedactor([settings.apiKey]);
  const style = makeStyle(colorEnabled(uiStream, io.env));
  const ui = new Printer(uiStream, redact);
  const shown = (file: string) => {
    const rel = path.relative(root, file);
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
  };

  let detach!: (planFile: string) => void;
  const detached = new Promise<string>((resolve) => (detach = resolve));
  // The gate does not print again the steps of a plan the transcript just printed whole.
  const plansOnScreen = json ? undefined : new PlansOnScreen();
  const hooks = {
    onDetach: (f: string) => detach(f),
    shown,
    planOnScreen: (f: string, revision: number) => plansOnScreen?.has(f, revision) ?? false,
  };
  let input: LineInput | undefined;
  let interviewer: Interviewer;
  let approver: Approver;
  if (interactive) {
    input = new LineInput(io.stdin, uiStream, ui, stdinTty && uiStream.isTTY === true);
    interviewer = new TerminalInterviewer(input, ui, style);
    approver = new TerminalApprover(input, ui, style, hooks);
  } else {
    interviewer = nonInteractiveInterviewer;
    approver = new NonInteractiveApprover(ui, style, hooks);
  }
  const reviseOnce = flags.approve === 'revise' ? new ReviseOnce(ui, style) : undefined;
  if (reviseOnce) approver = reviseOnce.wrap(approver);

  const log = flags.verbose ? (line: string) => io.stderr.write(`[planwise] ${redact(line)}\n`) : undefined;
  const archiveDir = path.join(root, SESSIONS_DIR);
  ensureSessionsDir(archiveDir);
  const archive = new FileArchiveStore(archiveDir);
  // MCP servers start only when a tool of theirs is allowed, and with the session's first turn.
  const mcpTools = flags.mcpTools ?? [];
  const mcp =
    mcpTools.length > 0
      ? lazyMcpClient({ root, env: childEnv(io, settings.keyVariables), ...(log ? { log } : {}) })
      : undefined;
  const deps: SessionDeps = {
    reader,
    writer: new NodeWorkspaceWriter(),
    searcher: createSearcher(reader, undefined, io.env),
    runner: new NodeCommandRunner('/bin/sh', childEnv(io, settings.keyVariables)),
    model: new OpenAIModelClient({
      baseURL: settings.baseURL,
      ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
      maxRetries: settings.maxRetries,
      firstByteTimeoutMs: settings.firstByteTimeoutMs,
      idleTimeoutMs: settings.idleTimeoutMs,
      authAdvice: cliAuthAdvice(flags.apiKeyEnv),
      ...(log ? { log } : {}),
    }),
    clock: systemClock,
    interviewer,
    approver,
    archive: redactingArchive(archive, redact),
    // Build checkpoints beside the session archive (never in the workspace's files or git).
    checkpoints: (id) => new FileCheckpointStore(archiveDir, id),
    ...(log ? { log } : {}),
    ...(mcp ? { mcp } : {}),
  };
  const autoDecision: ApprovalDecision | undefined = flags.approve === 'revise' ? undefined : flags.approve;
  const config: SessionConfig = {
    planningModel: settings.model,
    ...(settings.buildModel !== undefined ? { buildModel: settings.buildModel } : {}),
    trusted: !flags.untrusted,
    ...(io.env['HOME'] !== undefined ? { home: io.env['HOME'] } : {}),
    interactive,
    ...(autoDecision !== undefined ? { autoDecision } : {}),
    ...(flags.allowCommands.length > 0 ? { buildAllowList: flags.allowCommands } : {}),
    ...(flags.contextWindow !== undefined ? { contextWindow: flags.contextWindow } : {}),
    ...(flags.compactAt !== undefined ? { compactAtPercent: flags.compactAt } : {}),
    buildScope: flags.strictScope ? 'strict' : interactive ? 'ask' : 'record',
    ...(flags.noInstructions ? { instructions: false as const } : {}),
    ...(mcpTools.length > 0 ? { mcp: { planningTools: mcpTools, alwaysAllow: flags.mcpAlways ?? [] } } : {}),
  };

  return {
    root,
    settings,
    deps,
    config,
    archive,
    json,
    ui,
    style,
    input,
    reviseOnce,
    detached,
    redact,
    shown,
    attach(session) {
      const renderer = json
        ? new JsonRenderer(io.stdout, redact)
        : new TranscriptRenderer(ui, style, shown, plansOnScreen);
      session.bus.on((e) => renderer.handle(e));
    },
    close() {
      input?.close();
      void mcp?.close();
    },
  };
}
