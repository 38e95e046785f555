/**
 * What a host implements and hands the engine: the workspace, command runner, archive, checkpoint,
 * search, MCP and approval ports, the model client with the types it streams, and the engine's
 * pieces an adapter builds on (stream accumulation, ignore rules, the JavaScript searcher).
 */
export type * from '../ports';
export type * from '../lifecycle/ports';
export type * from '../mcp/ports';
export type * from '../build/ports';
export * from '../agent/model';
export { StreamAccumulator } from '../agent/streamAccumulator';
export { InlineReasoningSplitter } from '../agent/inlineReasoning';
export { HEAVY_DIRS, IgnoreRules, rootOf } from '../tools/ignoreRules';
export { JsSearcher } from '../tools/jsSearch';
export { comparePaths } from '../tools/pathOrder';
