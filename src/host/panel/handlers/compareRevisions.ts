import type { Handler } from './types';

export const compareRevisions: Handler<'compareRevisions'> = (_message, { actions }) => actions.compareRevisions();
