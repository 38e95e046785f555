// The tools each agent offers, as TypeScript entry source for `loadTs`. The engine's toolset module
// (src/core/session/toolset.ts) exports `planningToolSchemas()` / `buildToolSchemas()`: exactly
// what a session sends. Without it, the lists are assembled from the read-only tools and the tool
// files in src/core/tools/session and src/core/tools/build, and the source says so.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { exists, repoRoot } from './load.mjs';

/** Planning tools besides the read-only ones (rules §1): the interview and the task tracker. */
/** Where the engine's toolset module lives (the first that exists is used). */
const TOOLSET_MODULES = ['src/core/session/toolset', 'src/core/agent/toolset'];

export const PLANNING_SESSION_TOOLS = ['request_user_input', 'task_tracker'];

function tsModulesIn(rel) {
  if (!exists(rel)) return [];
  return readdirSync(path.join(repoRoot, rel))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => `./${rel}/${f.slice(0, -3)}`);
}

/**
 * TypeScript exporting `planningTools()` and `buildTools()`, each `{ schemas: ToolSchema[], source }`,
 * plus `readOnlyTools` (the runnable definitions).
 */
export function toolsetEntrySource() {
  const common = `export { readOnlyTools } from './src/core/tools/index';`;
  const toolset = TOOLSET_MODULES.find((m) => exists(`${m}.ts`));
  if (toolset) {
    return `${common}
      import { planningToolSchemas, buildToolSchemas } from './${toolset}';
      const source = '${toolset}.ts (planningToolSchemas, buildToolSchemas)';
      export const planningTools = () => ({ schemas: planningToolSchemas(), source });
      export const buildTools = () => ({ schemas: buildToolSchemas(), source });`;
  }
  const session = tsModulesIn('src/core/tools/session');
  const build = tsModulesIn('src/core/tools/build');
  const imports = [...session, ...build].map((m, i) => `import * as t${i} from '${m}';`).join('\n');
  const list = (from, count) => `[${Array.from({ length: count }, (_, i) => `t${from + i}`).join(', ')}]`;
  return `${common}
    import { readOnlyTools as readOnly, toolSchemaOf } from './src/core/tools/index';
    ${imports}
    const isTool = (v: any) =>
      v && typeof v === 'object' && typeof v.name === 'string' && typeof v.run === 'function' && v.schema;
    const unique = (tools: any[]) => tools.filter((t, i) => tools.findIndex((u) => u.name === t.name) === i);
    const toolsIn = (mods: any[]) => unique(mods.flatMap((m) => Object.values(m).filter(isTool)));
    const sessionTools = toolsIn(${list(0, session.length)});
    const buildOnly = toolsIn(${list(session.length, build.length)});
    const planningNames = ${JSON.stringify(PLANNING_SESSION_TOOLS)};
    const source =
      'assembled (no toolset module yet): planning = readOnlyTools + request_user_input + task_tracker; ' +
      'build = readOnlyTools + the tools in src/core/tools/session and src/core/tools/build';
    export const planningTools = () => ({
      schemas: [...readOnly, ...sessionTools.filter((t) => planningNames.includes(t.name))].map(toolSchemaOf),
      source,
    });
    export const buildTools = () => ({
      schemas: unique([...readOnly, ...sessionTools, ...buildOnly]).map(toolSchemaOf),
      source,
    });`;
}
