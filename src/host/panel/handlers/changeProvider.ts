import type { Handler } from './types';

/** Change provider (a failed request's notice, the header's provider label): where models come from. */
export const changeProvider: Handler<'changeProvider'> = (_message, { actions }) => actions.changeProvider();
