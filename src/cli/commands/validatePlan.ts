/**
 * `planwise validate-plan`: checks one plan file against the plan rules, for CI and pre-commit
 * hooks. A file holding a `<proposed_plan>` block (a saved model response) is judged by the block.
 */
import * as path from 'node:path';
import { validatePlan, extractPlan, type PlanError, type PlanWarning } from '../../core/api/plans';
import { NodeWorkspaceReader } from '../../node/fsWorkspace';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';

const USAGE = `Usage: planwise validate-plan [--json] FILE

Checks a plan (markdown) against the plan rules: the four required sections, concrete steps with
a target and a verify: check, no placeholders, no open decisions. File references written as links
are warnings: shown, but the plan stays valid. FILE may also be a saved response holding a
<proposed_plan> block, or - for standard input.

Options:
  --json      print {"valid": true|false, "errors": [{"message": "...", "step": N, "line": N,
              "hint": "..."}], "warnings": [{"message": "...", "line": N}], "steps": N}
  -h, --help  show this help

Exit status: 0 valid, 1 invalid, 2 unreadable file or usage error.
`;

const EXIT_INVALID = 1;

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise validate-plan: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

async function readInput(file: string, io: CliIO): Promise<string> {
  if (file === '-') {
    let text = '';
    for await (const chunk of io.stdin) {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    }
    return text;
  }
  const abs = path.resolve(io.cwd, file);
  const reader = new NodeWorkspaceReader([path.dirname(abs)]);
  const st = await reader.stat(abs);
  if (st === undefined) throw new Error('no such file');
  if (st.type !== 'file') throw new Error(`it is a ${st.type === 'dir' ? 'directory' : st.type}, not a file`);
  return new TextDecoder().decode(await reader.readFile(abs));
}

function human(
  file: string,
  title: string,
  steps: number,
  errors: readonly PlanError[],
  warnings: readonly PlanWarning[],
): string {
  const name = title ? ` "${title}"` : '';
  const stepText = `${steps} step${steps === 1 ? '' : 's'}`;
  const lines =
    errors.length === 0
      ? [`${file}: valid plan${name} (${stepText})`]
      : [`${file}: invalid plan${name} (${stepText}, ${errors.length} problem${errors.length === 1 ? '' : 's'})`];
  for (const e of errors) {
    lines.push(`  - ${e.message}`);
    if (e.hint) lines.push(`      ${e.hint}`);
  }
  for (const w of warnings) lines.push(`  warning: ${w.message}`);
  return `${lines.join('\n')}\n`;
}

export const validatePlanCommand: CliCommand = async (args, io) => {
  let json = false;
  const files: string[] = [];
  for (const a of args) {
    if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') {
      io.stdout.write(USAGE);
      return 0;
    } else if (a.startsWith('-') && a !== '-') return usageError(io, `unknown option '${a}'`);
    else files.push(a);
  }
  if (files.length !== 1) {
    return usageError(io, files.length === 0 ? 'no plan file given' : 'give exactly one plan file');
  }
  const file = files[0] as string;
  let text: string;
  try {
    text = await readInput(file, io);
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : err instanceof Error
            ? err.message
            : String(err);
    io.stderr.write(`planwise validate-plan: cannot read '${file}': ${reason}\n`);
    return EXIT_USAGE;
  }
  const plan = extractPlan(text).plan ?? text;
  const result = validatePlan(plan);
  if (json) {
    const out = {
      valid: result.valid,
      errors: result.errors,
      warnings: result.summary.warnings,
      steps: result.summary.steps.length,
    };
    io.stdout.write(`${JSON.stringify(out)}\n`);
  } else {
    const { title, steps, warnings } = result.summary;
    io.stdout.write(human(file, title, steps.length, result.errors, warnings));
  }
  return result.valid ? 0 : EXIT_INVALID;
};
