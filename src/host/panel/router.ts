/**
 * Every message from the webview enters here: checked against the protocol's schemas, dropped
 * (and logged) when malformed, otherwise handed to its one handler. Never throws.
 */
import type * as Parse from '../../protocol/parse';
import type { WebviewMessage } from '../../protocol';
import { HANDLERS, type HandlerContext, type HandlerTable } from './handlers';

// The schemas are built with the first message, not when the host loads: the panel's first paint
// (the page carries its snapshot) waits for the host's start, and building them is a visible part
// of it. esbuild turns the `require` into a module initialised
// on first call; test/host/lazyProtocol.test.ts holds dist/host.js to it.
let parse: typeof Parse | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy loading; see above
const loadParse = () => (parse ??= require('../../protocol/parse') as typeof Parse);

export interface RouterLog {
  debug(line: string): void;
  warn(line: string): void;
  error(line: string, err?: unknown): void;
}

export interface RouterOptions {
  readonly handlers?: HandlerTable;
  /** Tells the person when acting on a message failed (e.g. a notification). */
  readonly onError?: (message: WebviewMessage, err: unknown) => void;
}

export type MessageRouter = (raw: unknown) => Promise<'handled' | 'dropped' | 'failed'>;

export function createRouter(
  ctx: Omit<HandlerContext, 'log'> & { log: RouterLog },
  options: RouterOptions = {},
): MessageRouter {
  const handlers = options.handlers ?? HANDLERS;
  return async (raw) => {
    const parsed = loadParse().parseWebviewMessage(raw);
    if (!parsed.ok) {
      ctx.log.warn(parsed.error);
      return 'dropped';
    }
    const message = parsed.msg;
    const handler = handlers[message.type] as (m: WebviewMessage, c: HandlerContext) => void | Promise<void>;
    try {
      await handler(message, ctx);
      return 'handled';
    } catch (err) {
      ctx.log.error(`panel message "${message.type}" failed`, err);
      options.onError?.(message, err);
      return 'failed';
    }
  };
}
