import type { Handler } from './types';

/** The key is typed into VS Code's password box, never into the webview. */
export const setApiKey: Handler<'setApiKey'> = (_message, { actions }) => actions.setApiKey();
