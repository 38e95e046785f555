/**
 * The read-only gate (rules §1): a pure function of (tool, arguments, workspace roots, trust)
 * that decides, before anything runs, whether a call may run while planning. It never touches the
 * file system itself; the write check resolves real paths through the `realpath` it is given.
 */
export { checkShellCommand } from './shell';
export { checkPlanningToolCall, type PlanningContext } from './policy';
export { isInsideRoots } from './paths';
export type { GateContext, ToolKind, Verdict } from './types';
