/**
 * The model API key, kept in VS Code's `SecretStorage` and nowhere else. The host remembers it in
 * memory only to hand it to the model client and to redact it from anything it logs.
 */
import { Emitter } from '../core/api/basics';
import { API_KEY_SECRET } from './ids';

/** VS Code's `SecretStorage`, structurally. */
export interface SecretStorageLike {
  get(key: string): Thenable<string | undefined> | Promise<string | undefined>;
  store(key: string, value: string): Thenable<void> | Promise<void>;
  delete(key: string): Thenable<void> | Promise<void>;
  onDidChange(listener: (e: { key: string }) => unknown): { dispose(): unknown };
}

type Thenable<T> = PromiseLike<T>;

export class ApiKeyStore {
  private cached: string | undefined;
  private loaded = false;
  private lastFired = false;
  private readonly listeners = new Emitter<boolean>();
  private readonly sub: { dispose(): unknown };

  constructor(private readonly storage: SecretStorageLike) {
    this.sub = storage.onDidChange((e) => {
      if (e.key !== API_KEY_SECRET) return;
      // Another window changed it: read again.
      void this.reload();
    });
  }

  async get(): Promise<string | undefined> {
    if (!this.loaded) await this.reload();
    return this.cached;
  }

  async hasKey(): Promise<boolean> {
    return (await this.get()) !== undefined;
  }

  /** Secret storage has answered (or a key was set or cleared here): `known` is the truth. */
  get checked(): boolean {
    return this.loaded;
  }

  /** The key if it was read already (for redaction, which must not wait). */
  get known(): readonly string[] {
    return this.cached === undefined ? [] : [this.cached];
  }

  async set(key: string): Promise<void> {
    const trimmed = key.trim();
    const problem = checkApiKey(trimmed);
    if (problem) throw new Error(problem);
    await this.storage.store(API_KEY_SECRET, trimmed);
    this.cached = trimmed;
    this.loaded = true;
    this.fire();
  }

  async clear(): Promise<void> {
    await this.storage.delete(API_KEY_SECRET);
    this.cached = undefined;
    this.loaded = true;
    this.fire();
  }

  onDidChange(listener: (hasKey: boolean) => void): { dispose(): void } {
    return this.listeners.on(listener);
  }

  dispose(): void {
    this.sub.dispose();
    this.listeners.clear();
  }

  private async reload(): Promise<void> {
    const value = await this.storage.get(API_KEY_SECRET);
    this.cached = value === undefined || value === '' ? undefined : value;
    this.loaded = true;
    this.fire();
  }

  /** Tells listeners when having a key changed (never twice for one change seen from two sides). */
  private fire(): void {
    const has = this.cached !== undefined;
    if (has === this.lastFired) return;
    this.lastFired = has;
    this.listeners.fire(has);
  }
}

/** Undefined when the text can be a key; otherwise what is wrong with it (shown in the input box). */
export function checkApiKey(value: string): string | undefined {
  if (value.trim() === '') return 'Enter the key, or press Escape to keep the current one.';
  if (/\s/.test(value.trim())) return 'An API key has no spaces or line breaks; paste only the key.';
  if (value.trim().length < 8) return 'That is too short to be an API key.';
  return undefined;
}
