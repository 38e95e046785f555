/**
 * Events about the model transport and the context window, computed once in the engine so every
 * host shows the same facts: a retry's wait (hosts count it down), a compaction's before/after.
 */

export type ModelEventBody =
  | {
      /** A request failed before anything was delivered; it is sent again after `wait_ms` unless cancelled. */
      readonly type: 'model.retrying';
      readonly turn_id: string;
      /** The attempt about to be made (2 for the first retry) of `max_attempts`. */
      readonly attempt: number;
      readonly max_attempts: number;
      /** How long the wait lasts from this event's `at` (the server's Retry-After, or backoff). */
      readonly wait_ms: number;
      /** What failed, in words, e.g. `the endpoint answered 429 and asked to wait 120 s`. */
      readonly reason: string;
    }
  | {
      /**
       * The model's stream has sent nothing for `silent_ms` (the wait began `silent_ms` before this
       * event's `at`); hosts count the wait up from there ("Waiting for the model · 34 s"). A second
       * event with `waiting: false` ends it: a chunk arrived, or the stream ended or was stopped.
       */
      readonly type: 'model.waiting';
      readonly turn_id: string;
      readonly waiting: boolean;
      readonly silent_ms: number;
    }
  | {
      /**
       * The request view was compacted (the durable thread is unchanged): older tool results became
       * stubs, or whole older tool rounds were left out, so the request fits the context window.
       */
      readonly type: 'context.compacted';
      readonly turn_id: string;
      /** `threshold`: the thread passed the configured share of the window; `overflow`: the provider said it did not fit. */
      readonly trigger: 'threshold' | 'overflow';
      readonly before_tokens: number;
      readonly after_tokens: number;
      readonly window_tokens: number;
      /** Tool results shown as stubs, and older messages left out of the request altogether. */
      readonly stubbed_results: number;
      readonly omitted_messages: number;
    };
