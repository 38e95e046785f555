/**
 * The commands that run a session (`plan`, `resume`): built together as dist/cli/session.js, the
 * one CLI bundle that holds the engine and the `openai` client.
 */
export { planCommand } from './plan';
export { resumeCommand } from './resume';
