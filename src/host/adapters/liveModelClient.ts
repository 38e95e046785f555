/**
 * A session's model client that follows the settings: before each request it reads the current
 * settings and key, and builds a new endpoint client only when they changed (base URL, key,
 * timeouts). A model name the session was created with is mapped to the one set now, so a fix made
 * in the setup card or the settings reaches the next request of a live session, Retry included.
 */
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../core/api/ports';

export interface LiveInputs {
  /** What the endpoint client depends on, compared by value to decide whether to rebuild it. */
  readonly endpoint: Readonly<Record<string, string | number | undefined>>;
  readonly planningModel: string;
  /** Empty: the planning model builds too. */
  readonly buildModel: string;
}

export class LiveModelClient implements ModelClient {
  private client: ModelClient | undefined;
  private builtFor = '';

  constructor(
    private readonly current: () => Promise<LiveInputs>,
    private readonly build: (inputs: LiveInputs) => ModelClient,
    /** The names the session was configured with (its requests carry them). */
    private readonly created: { readonly planningModel: string; readonly buildModel: string },
  ) {}

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const inputs = await this.current();
    const key = JSON.stringify(inputs.endpoint);
    if (!this.client || key !== this.builtFor) {
      this.client = this.build(inputs);
      this.builtFor = key;
    }
    yield* this.client.stream({ ...request, model: this.modelFor(request.model, inputs) }, signal);
  }

  private modelFor(model: string, now: LiveInputs): string {
    return currentModel(model, this.created, now);
  }
}

/** The planning and build model names (an empty build model: the planning model builds too). */
export interface ModelNames {
  readonly planningModel: string;
  readonly buildModel: string;
}

/** A model name the session was created with, mapped to the one set now; any other name stays. */
export function currentModel(model: string, created: ModelNames, now: ModelNames): string {
  const createdBuild = created.buildModel || created.planningModel;
  if (model === created.planningModel) return now.planningModel;
  if (model === createdBuild) return now.buildModel || now.planningModel;
  return model;
}

/**
 * A provider's own client (`vscode.lm`: no endpoint, no key) that follows the model settings the
 * way LiveModelClient does: a model picked with Select Model while a session runs (after "VS Code
 * offers no language model …", say) reaches its next request, Retry included, and its token counts
 * and context window.
 */
export class LiveModelNames implements ModelClient {
  readonly countTokens?: ModelClient['countTokens'];
  readonly contextWindow?: ModelClient['contextWindow'];

  constructor(
    private readonly inner: ModelClient,
    private readonly current: () => ModelNames,
    private readonly created: ModelNames,
  ) {
    const count = inner.countTokens?.bind(inner);
    if (count)
      this.countTokens = (request, signal) => count({ ...request, model: this.modelFor(request.model) }, signal);
    const window = inner.contextWindow?.bind(inner);
    if (window) this.contextWindow = (model) => window(this.modelFor(model));
  }

  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    return this.inner.stream({ ...request, model: this.modelFor(request.model) }, signal);
  }

  private modelFor(model: string): string {
    return currentModel(model, this.created, this.current());
  }
}
