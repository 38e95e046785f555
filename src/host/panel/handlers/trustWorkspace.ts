import type { Handler } from './types';

/** The Restricted Mode banner's Trust Workspace: VS Code's own trust dialog decides. */
export const trustWorkspace: Handler<'trustWorkspace'> = (_message, { actions }) => actions.trustWorkspace();
