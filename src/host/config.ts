/**
 * The typed view of Planwise's settings. `readSettings` takes a getter (VS Code's
 * `WorkspaceConfiguration.get`, or a plain object in tests), checks every value, and falls back
 * to the default for anything invalid, reporting it so the host can offer "Open Settings".
 */
import {
  DEFAULT_BUDGETS,
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  DEFAULT_PLANS_DIR,
  INSTRUCTION_SOURCES,
  type BudgetOverrides,
  type InstructionSource,
} from '../core/api/basics';
import type { SessionConfig } from '../core/api/sessions';
import { isPrivateHost, readEndpointUrl } from '../node/endpointUrl';
import {
  readAgent,
  readAllowList,
  readBaseUrl,
  readBool,
  readInstructionFiles,
  readModel,
  readPlansDir,
  readProvider,
  readScope,
  readToolList,
} from './settingReaders';

export const CONFIG_SECTION = 'planwise';

const KIB = 1024;

export interface BudgetSettings {
  readonly blockedCap: number;
  readonly toolCallsPerTurn: number;
  readonly loopsPerTurn: number;
  readonly sessionToolCalls: number;
  readonly previewTurnKiB: { readonly plan: number; readonly build: number };
  readonly planningTokenCap: number;
}

export type ProviderKind = 'openai-compatible' | 'vscode-lm';

export interface PlanwiseSettings {
  /** Where models come from: an OpenAI-compatible endpoint, or VS Code's Language Model API. */
  readonly provider: ProviderKind;
  /** The API root without a trailing slash. */
  readonly baseUrl: string;
  readonly planningModel: string;
  /** Empty: the planning model builds too. */
  readonly buildModel: string;
  readonly contextWindow: number;
  /** Planwise's own model request timeouts, in seconds. */
  readonly request: { readonly firstByteTimeoutSeconds: number; readonly idleTimeoutSeconds: number };
  /** Compaction starts when the thread passes this share of the context window. */
  readonly context: { readonly compactAtPercent: number };
  readonly budgets: BudgetSettings;
  /** Workspace-relative, forward slashes. */
  readonly plansDirectory: string;
  readonly requireVerifyToComplete: boolean;
  readonly buildCommandAllowList: readonly string[];
  readonly defaultAgent: 'plan' | 'build';
  /** Build writes outside the approved plan's scope: ask, record (allow and report) or strict (refuse). */
  readonly build: { readonly scope: 'ask' | 'record' | 'strict' };
  /** Seconds one verify command may run (lens, panel, Run All Verify and the build's verify gate). */
  readonly verify: { readonly timeoutSeconds: number };
  /** The repository's instruction files both agents get: which (`false`: none) and the bound. */
  readonly instructions: { readonly files: readonly InstructionSource[] | false; readonly maxKilobytes: number };
  /** MCP tools the person allowed (`server/tool`, `server/*`), and those the build may call without asking. */
  readonly mcp: { readonly planningTools: readonly string[]; readonly alwaysAllow: readonly string[] };
}

export const DEFAULT_SETTINGS: PlanwiseSettings = Object.freeze({
  provider: 'openai-compatible',
  baseUrl: 'https://api.openai.com/v1',
  planningModel: 'gpt-4.1',
  buildModel: '',
  contextWindow: 128_000,
  request: Object.freeze({ firstByteTimeoutSeconds: 120, idleTimeoutSeconds: 120 }),
  context: Object.freeze({ compactAtPercent: 80 }),
  verify: Object.freeze({ timeoutSeconds: 300 }),
  budgets: Object.freeze({
    blockedCap: DEFAULT_BUDGETS.blockedCap,
    toolCallsPerTurn: DEFAULT_BUDGETS.toolCallsPerTurn,
    loopsPerTurn: DEFAULT_BUDGETS.loopsPerTurn,
    sessionToolCalls: DEFAULT_BUDGETS.sessionToolCalls,
    previewTurnKiB: Object.freeze({
      plan: DEFAULT_BUDGETS.previewTurnBytes.plan / KIB,
      build: DEFAULT_BUDGETS.previewTurnBytes.build / KIB,
    }),
    planningTokenCap: DEFAULT_BUDGETS.planningTokenCap,
  }),
  plansDirectory: DEFAULT_PLANS_DIR,
  requireVerifyToComplete: true,
  buildCommandAllowList: Object.freeze([]) as readonly string[],
  defaultAgent: 'plan',
  build: Object.freeze({ scope: 'ask' }),
  instructions: Object.freeze({
    files: Object.freeze([...INSTRUCTION_SOURCES]) as readonly InstructionSource[],
    maxKilobytes: DEFAULT_INSTRUCTIONS_MAX_BYTES / KIB,
  }),
  mcp: Object.freeze({
    planningTools: Object.freeze([]) as readonly string[],
    alwaysAllow: Object.freeze([]) as readonly string[],
  }),
}) as PlanwiseSettings;

/** Every setting key (without the `planwise.` prefix), as contributed in package.json. */
export const SETTING_KEYS = [
  'provider',
  'baseUrl',
  'planningModel',
  'buildModel',
  'contextWindow',
  'request.firstByteTimeoutSeconds',
  'request.idleTimeoutSeconds',
  'context.compactAtPercent',
  'verify.timeoutSeconds',
  'budgets.blockedCap',
  'budgets.toolCallsPerTurn',
  'budgets.loopsPerTurn',
  'budgets.sessionToolCalls',
  'budgets.previewTurnKiB.plan',
  'budgets.previewTurnKiB.build',
  'budgets.planningTokenCap',
  'plansDirectory',
  'requireVerifyToComplete',
  'buildCommandAllowList',
  'defaultAgent',
  'build.scope',
  'instructions.files',
  'instructions.maxKilobytes',
  'mcp.planningTools',
  'mcp.alwaysAllow',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

/**
 * Settings an untrusted workspace may not set (package.json `restrictedConfigurations`): a
 * workspace could otherwise send the code to a server of its choosing, pre-approve commands, or
 * start straight in the build agent.
 */
export const RESTRICTED_SETTING_KEYS: readonly SettingKey[] = [
  'provider',
  'baseUrl',
  'buildModel',
  'planningModel',
  'plansDirectory',
  'buildCommandAllowList',
  'defaultAgent',
  'requireVerifyToComplete',
  'build.scope',
  'mcp.planningTools',
  'mcp.alwaysAllow',
];

export interface SettingProblem {
  /** Full key, e.g. `planwise.baseUrl`. */
  readonly key: string;
  readonly message: string;
}

export interface ReadSettings {
  readonly settings: PlanwiseSettings;
  readonly problems: readonly SettingProblem[];
}

export type SettingGetter = (key: SettingKey) => unknown;

/** `plansDirectory` alone, checked as `readSettings` checks it (the plan lenses' selector at activation). */
export function readPlansDirectory(get: SettingGetter): string {
  return readPlansDir(get('plansDirectory'), DEFAULT_SETTINGS.plansDirectory, () => undefined);
}

/** Reads and checks every setting. Never throws: a bad value is replaced by its default and reported. */
export function readSettings(get: SettingGetter): ReadSettings {
  const problems: SettingProblem[] = [];
  const bad = (key: SettingKey, message: string) => problems.push({ key: `${CONFIG_SECTION}.${key}`, message });
  const d = DEFAULT_SETTINGS;

  const count = (key: SettingKey, fallback: number, min = 0): number => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      bad(
        key,
        `must be a whole number of at least ${min} (0 means unlimited where allowed); got ${JSON.stringify(v)}. Using ${fallback}.`,
      );
      return fallback;
    }
    return v;
  };
  const percent = (key: SettingKey, fallback: number): number => {
    const v = count(key, fallback, 10);
    if (v <= 100) return v;
    bad(key, `must be a percentage from 10 to 100; got ${v}. Using ${fallback}.`);
    return fallback;
  };

  return {
    settings: {
      provider: readProvider(get('provider'), d.provider, (m) => bad('provider', m)),
      baseUrl: readBaseUrl(get('baseUrl'), d.baseUrl, (m) => bad('baseUrl', m)),
      planningModel: readModel(get('planningModel'), d.planningModel, true, (m) => bad('planningModel', m)),
      buildModel: readModel(get('buildModel'), d.buildModel, false, (m) => bad('buildModel', m)),
      contextWindow: count('contextWindow', d.contextWindow, 1024),
      request: {
        firstByteTimeoutSeconds: count('request.firstByteTimeoutSeconds', d.request.firstByteTimeoutSeconds, 1),
        idleTimeoutSeconds: count('request.idleTimeoutSeconds', d.request.idleTimeoutSeconds, 1),
      },
      context: { compactAtPercent: percent('context.compactAtPercent', d.context.compactAtPercent) },
      verify: { timeoutSeconds: count('verify.timeoutSeconds', d.verify.timeoutSeconds, 1) },
      budgets: {
        blockedCap: count('budgets.blockedCap', d.budgets.blockedCap),
        toolCallsPerTurn: count('budgets.toolCallsPerTurn', d.budgets.toolCallsPerTurn),
        loopsPerTurn: count('budgets.loopsPerTurn', d.budgets.loopsPerTurn),
        sessionToolCalls: count('budgets.sessionToolCalls', d.budgets.sessionToolCalls),
        previewTurnKiB: {
          plan: count('budgets.previewTurnKiB.plan', d.budgets.previewTurnKiB.plan),
          build: count('budgets.previewTurnKiB.build', d.budgets.previewTurnKiB.build),
        },
        planningTokenCap: count('budgets.planningTokenCap', d.budgets.planningTokenCap),
      },
      plansDirectory: readPlansDir(get('plansDirectory'), d.plansDirectory, (m) => bad('plansDirectory', m)),
      requireVerifyToComplete: readBool(get('requireVerifyToComplete'), d.requireVerifyToComplete, (m) =>
        bad('requireVerifyToComplete', m),
      ),
      buildCommandAllowList: readAllowList(get('buildCommandAllowList'), (m) => bad('buildCommandAllowList', m)),
      defaultAgent: readAgent(get('defaultAgent'), d.defaultAgent, (m) => bad('defaultAgent', m)),
      build: { scope: readScope(get('build.scope'), d.build.scope, (m) => bad('build.scope', m)) },
      instructions: {
        files: readInstructionFiles(get('instructions.files'), (m) => bad('instructions.files', m)),
        maxKilobytes: count('instructions.maxKilobytes', d.instructions.maxKilobytes),
      },
      mcp: {
        planningTools: readToolList(get('mcp.planningTools'), true, (m) => bad('mcp.planningTools', m)),
        alwaysAllow: readToolList(get('mcp.alwaysAllow'), false, (m) => bad('mcp.alwaysAllow', m)),
      },
    },
    problems,
  };
}

/** The budget overrides the engine takes. */
export function budgetOverrides(b: BudgetSettings): BudgetOverrides {
  return {
    blockedCap: b.blockedCap,
    toolCallsPerTurn: b.toolCallsPerTurn,
    loopsPerTurn: b.loopsPerTurn,
    sessionToolCalls: b.sessionToolCalls,
    planningTokenCap: b.planningTokenCap,
    previewTurnBytes: { plan: b.previewTurnKiB.plan * KIB, build: b.previewTurnKiB.build * KIB },
  };
}

/**
 * The engine's configuration for a new session. `trusted` is read through a getter, so an engine
 * that consults `config.trusted` when it needs it sees trust granted after the session started.
 */
export function toSessionConfig(
  s: PlanwiseSettings,
  trusted: () => boolean,
  extra: { home?: string; contextWindow?: number } = {},
): SessionConfig {
  const config = {
    planningModel: s.planningModel,
    ...(s.buildModel !== '' ? { buildModel: s.buildModel } : {}),
    plansDir: s.plansDirectory,
    budgets: budgetOverrides(s.budgets),
    contextWindow: extra.contextWindow ?? s.contextWindow,
    compactAtPercent: s.context.compactAtPercent,
    requireVerifyToComplete: s.requireVerifyToComplete,
    buildAllowList: s.buildCommandAllowList,
    interactive: true,
    startAgent: s.defaultAgent,
    buildScope: s.build.scope,
    instructions:
      s.instructions.files === false
        ? (false as const)
        : { sources: s.instructions.files, maxBytes: s.instructions.maxKilobytes * KIB },
    mcp: { planningTools: s.mcp.planningTools, alwaysAllow: s.mcp.alwaysAllow },
    ...(extra.home !== undefined ? { home: extra.home } : {}),
  };
  return Object.defineProperty(config, 'trusted', { get: trusted, enumerable: true }) as SessionConfig;
}

/**
 * True when the base URL points at this machine or a private network (Ollama, LM Studio, a vLLM on
 * the LAN): such servers usually need no key, so none is demanded before starting.
 */
export function isLocalEndpoint(baseUrl: string): boolean {
  const read = readEndpointUrl(baseUrl);
  return read.ok && isPrivateHost(new URL(read.url).hostname);
}
