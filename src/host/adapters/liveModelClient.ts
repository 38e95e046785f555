/**
 * A session's model client that follows the settings: before each request it reads the current
 * settings and key, and builds a new endpoint client only when they changed (base URL, key,
 * timeouts). A model name the session was created with is mapped to the one set now, so a fix made
 * in the setup card or the settings reaches the next request of a live session, Retry included.
 */
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../core/index';

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
    const createdBuild = this.created.buildModel || this.created.planningModel;
    if (model === this.created.planningModel) return now.planningModel;
    if (model === createdBuild) return now.buildModel || now.planningModel;
    return model;
  }
}
