import type { Handler } from './types';

/** The webview saw a gap in the sequence numbers: a snapshot repairs it. */
export const resync: Handler<'resync'> = (message, { actions, log }) => {
  log.debug(`panel asked for a resync after seq ${message.lastSeq}`);
  actions.sendSnapshot();
};
