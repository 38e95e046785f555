import type { Handler } from './types';

export const setupClose: Handler<'setupClose'> = (_message, { actions }) => actions.setup('close');
