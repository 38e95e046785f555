/** Copies the context-key values to VS Code, only the ones that changed. */
import type { ContextKeyValues } from './contextKeys';
import { CONTEXT_KEYS } from './ids';

export type SetContext = (key: string, value: unknown) => PromiseLike<unknown>;

export class ContextKeySync {
  private last: Partial<Record<keyof ContextKeyValues, unknown>> = {};

  constructor(private readonly setContext: SetContext) {}

  apply(values: ContextKeyValues): void {
    for (const name of Object.keys(CONTEXT_KEYS) as (keyof ContextKeyValues)[]) {
      if (this.last[name] === values[name]) continue;
      this.last[name] = values[name];
      void this.setContext(CONTEXT_KEYS[name], values[name]);
    }
  }
}
