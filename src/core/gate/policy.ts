/**
 * The tool-level policy while planning (rules §1, first paragraph): read, list, search, the
 * interview and the task tracker may run; the shell tool runs only gated commands and only in a
 * trusted workspace; a write may run only when its real path lies under the plans directory;
 * every other tool is denied.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { judgeCommand } from './judge';
import { isInsideRoots } from './resolve';
import { allowed, blocked, type GateContext, type Judgement, type ToolKind, type Verdict } from './types';

export type PlanningContext = GateContext & {
  /** The plans directory (absolute, or relative to the first root). */
  readonly plansDir: string;
};

const READ_ONLY_KINDS = new Set<ToolKind>(['read', 'list', 'search', 'interview', 'tracker']);
const PATH_KEYS = ['path', 'file_path', 'filePath', 'target'] as const;

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * The real path `p` would be written at: symlinks of the nearest existing ancestor are resolved and
 * the missing rest appended (the file itself need not exist yet).
 */
async function realTarget(p: string, realpath: (p: string) => Promise<string>): Promise<string> {
  let dir = resolve(p);
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await realpath(dir);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (err) {
      const parent = dirname(dir);
      if (errorCode(err) !== 'ENOENT' || parent === dir) throw err;
      missing.push(basename(dir));
      dir = parent;
    }
  }
}

async function checkWrite(name: string, args: Record<string, unknown>, ctx: PlanningContext): Promise<Verdict> {
  const key = PATH_KEYS.find((k) => typeof args[k] === 'string');
  const raw = key ? (args[key] as string) : undefined;
  if (raw === undefined || raw === '') return blocked('write', `'${name}' needs a 'path' argument`);
  const root = ctx.roots[0];
  if (root === undefined && (!isAbsolute(raw) || !isAbsolute(ctx.plansDir))) {
    return blocked('write', `'${name}' cannot resolve '${raw}': no workspace is open`);
  }
  const absolute = resolve(root ?? '/', raw);
  const plans = resolve(root ?? '/', ctx.plansDir);
  let target: string;
  let realPlans: string;
  try {
    const realpath = (p: string) => ctx.fs.realpath(p);
    [target, realPlans] = await Promise.all([realTarget(absolute, realpath), realTarget(plans, realpath)]);
  } catch (err) {
    return blocked('write', `'${name}' cannot resolve '${raw}' (${errorCode(err) ?? String(err)})`);
  }
  if (target !== realPlans && isInsideRoots(target, [realPlans])) {
    return allowed(`'${name}' writes under the plans directory`, 'write');
  }
  return blocked(
    'write',
    `'${name}' may only write under the plans directory (${ctx.plansDir}) while planning; '${raw}' resolves outside it`,
  );
}

/**
 * Decides whether a tool call may run while planning. A shell call's command is judged here
 * unless the caller already judged it (`shell`): the dispatcher judges once and hands the same
 * judgement to the tool.
 */
export async function checkPlanningToolCall(
  tool: { name: string; kind: ToolKind },
  args: Record<string, unknown>,
  ctx: PlanningContext,
  shell?: Judgement,
): Promise<Verdict> {
  if (READ_ONLY_KINDS.has(tool.kind)) return allowed(`'${tool.name}' is a read-only tool`, 'tool');
  if (tool.kind === 'shell') {
    if (!ctx.trusted) {
      return blocked('trust', 'shell commands are off in an untrusted workspace; trust the workspace to enable them');
    }
    const command = args['command'];
    if (typeof command !== 'string') return blocked('tool', `'${tool.name}' needs a string 'command' argument`);
    return (shell ?? (await judgeCommand(command, ctx))).verdict;
  }
  if (tool.kind === 'write') return checkWrite(tool.name, args, ctx);
  return blocked('tool', `'${tool.name}' is not available while planning; it may change the workspace`);
}
