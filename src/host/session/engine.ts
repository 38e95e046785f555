/**
 * How the host builds engine sessions: the engine and the OpenAI-compatible client load here, on
 * the first session, never at activation. Each session gets a model client made with the current
 * base URL and key; the key is read from secret storage and handed to the client, nowhere else.
 */
import type { McpClientPort, ModelClient } from '../../core/api/ports';
import type { Session, SessionDeps } from '../../core/api/sessions';
import { LiveModelClient, LiveModelNames, type LiveInputs } from '../adapters/liveModelClient';
import { ObservedModelClient, type ModelObserver } from '../adapters/observedModel';
import { isLocalEndpoint, toSessionConfig, type PlanwiseSettings } from '../config';
import { once } from '../disposables';
import { lazyMcpClient } from '../../node/lazyMcpClient';
import type { EngineAccess } from './controller';

export interface EngineParts {
  /** Every port except the model, built by the composition root. */
  readonly deps: () => Omit<SessionDeps, 'model'>;
  readonly settings: () => PlanwiseSettings;
  readonly trusted: () => boolean;
  readonly apiKey: () => Promise<string | undefined>;
  readonly observer: ModelObserver;
  readonly log: (line: string) => void;
  /**
   * The environment `${env:…}` in an MCP server's configuration reads (a stdio server itself gets
   * only the SDK's safe subset plus what its configuration sets).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The model client for a provider other than an OpenAI-compatible endpoint (VS Code's Language Model API). */
  readonly providerModel?: (settings: PlanwiseSettings) => Promise<ModelClient | undefined>;
}

/** No key is stored and the server is not a local one: the person is asked to set one first. */
export class MissingApiKeyError extends Error {
  constructor(readonly baseUrl: string) {
    super(`No API key is set for ${baseUrl}. Set one with "Set API Key", or choose a local server that needs none.`);
    this.name = 'MissingApiKeyError';
  }
}

const loadModules = once(async () => {
  const [engine, openai] = await Promise.all([
    import('../../core/api/sessions'),
    import('../../node/openaiModelClient'),
  ]);
  return {
    createSession: engine.createSession,
    resumeSession: engine.resumeSession,
    OpenAI: openai.OpenAIModelClient,
    SessionArchive: engine.SessionArchive,
  };
});

export function createEngineAccess(parts: EngineParts): EngineAccess {
  /** The MCP servers of the workspace, when the person allowed a tool of theirs (the SDK loads only then). */
  const mcpFor = (settings: PlanwiseSettings, root: string | undefined): McpClientPort | undefined => {
    if (settings.mcp.planningTools.length === 0 || root === undefined) return undefined;
    return lazyMcpClient({ root, env: parts.env ?? {}, log: (line) => parts.log(line) });
  };
  const modelFor = async (settings: PlanwiseSettings): Promise<ModelClient> => {
    const own = await parts.providerModel?.(settings);
    if (own) {
      // No endpoint or key to follow; the model names follow the settings as below.
      const names = () => {
        const s = parts.settings();
        return { planningModel: s.planningModel, buildModel: s.buildModel };
      };
      const created = { planningModel: settings.planningModel, buildModel: settings.buildModel };
      return new ObservedModelClient(new LiveModelNames(own, names, created), parts.observer);
    }
    const { OpenAI } = await loadModules();
    const key = await parts.apiKey();
    if (key === undefined && !isLocalEndpoint(settings.baseUrl)) throw new MissingApiKeyError(settings.baseUrl);
    // Each request reads the settings and key as they are then (a fix reaches a live session).
    const inputs = async (): Promise<LiveInputs> => {
      const s = parts.settings();
      const apiKey = await parts.apiKey();
      return {
        endpoint: {
          baseURL: s.baseUrl,
          apiKey,
          firstByteTimeoutMs: s.request.firstByteTimeoutSeconds * 1000,
          idleTimeoutMs: s.request.idleTimeoutSeconds * 1000,
        },
        planningModel: s.planningModel,
        buildModel: s.buildModel,
      };
    };
    const client = new LiveModelClient(
      inputs,
      ({ endpoint: e }) =>
        new OpenAI({
          baseURL: String(e.baseURL),
          ...(e.apiKey !== undefined ? { apiKey: String(e.apiKey) } : {}),
          firstByteTimeoutMs: Number(e.firstByteTimeoutMs),
          idleTimeoutMs: Number(e.idleTimeoutMs),
          log: (line) => parts.log(`model client: ${line}`),
        }),
      { planningModel: settings.planningModel, buildModel: settings.buildModel },
    );
    return new ObservedModelClient(client, parts.observer);
  };
  const build = async () => {
    const settings = parts.settings();
    const model = await modelFor(settings);
    const base = parts.deps();
    const mcp = mcpFor(settings, base.reader.roots[0]);
    const deps: SessionDeps = { ...base, model, ...(mcp ? { mcp } : {}) };
    // A provider that knows its model's window (vscode.lm's maxInputTokens) overrides the setting.
    const window = model.contextWindow?.(settings.planningModel);
    return {
      deps,
      config: toSessionConfig(settings, parts.trusted, window !== undefined ? { contextWindow: window } : {}),
    };
  };
  return {
    async create(): Promise<Session> {
      const { createSession } = await loadModules();
      const { deps, config } = await build();
      return createSession(deps, config);
    },
    async resume(sessionId: string) {
      const { resumeSession, SessionArchive } = await loadModules();
      const { deps, config } = await build();
      const loaded = deps.archive ? await SessionArchive.load(deps.archive, sessionId) : undefined;
      const session = await resumeSession(deps, config, sessionId);
      if (!session || !loaded) {
        throw new Error(
          `Session ${sessionId} cannot be resumed: its archive is missing or has no checkpoint. Start a new plan instead.`,
        );
      }
      return { session, events: loaded.events };
    },
  };
}
