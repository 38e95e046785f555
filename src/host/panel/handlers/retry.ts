import type { Handler } from './types';

/** Retry on a failed request's notice: the person's last message goes out again, as it was typed. */
export const retry: Handler<'retry'> = (message, { actions }) => actions.retry(message.noticeId);
