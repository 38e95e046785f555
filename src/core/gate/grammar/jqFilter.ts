/** What a jq filter may not name (see jq.ts): found in its code, not in its strings or comments. */

/** Builtins that read what the command's words do not name: the environment, file names, modules. */
const DENIED = new Set([
  'env',
  'import',
  'include',
  'input_filename',
  'modulemeta',
  'get_search_list',
  'get_prog_origin',
  'get_jq_origin',
]);

/**
 * The filter with its string literals and comments blanked, keeping the code inside string
 * interpolations (`"\(env.HOME)"`), so a denied name is found only where jq reads it as code.
 */
export function jqCode(filter: string): string {
  let out = '';
  let inString = false;
  const depth: number[] = []; // open parentheses in each open interpolation
  for (let k = 0; k < filter.length; k++) {
    const c = filter[k] as string;
    if (inString) {
      if (c === '\\' && filter[k + 1] === '(') {
        depth.push(0);
        inString = false;
        out += ' (';
        k++;
      } else if (c === '\\') {
        out += '  ';
        k++;
      } else if (c === '"') {
        inString = false;
        out += '"';
      } else out += ' ';
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '#') {
      while (k + 1 < filter.length && filter[k + 1] !== '\n') k++;
      out += ' ';
      continue;
    } else if (depth.length > 0 && (c === '(' || c === ')')) {
      const open = depth.pop() as number;
      if (c === '(') depth.push(open + 1);
      else if (open > 0) depth.push(open - 1);
      else inString = true; // the `)` that closes the interpolation: back inside the string
    }
    out += c;
  }
  return out;
}

/** The denied name a filter uses, or null. */
export function deniedInFilter(filter: string): string | null {
  const code = jqCode(filter);
  const token = /(\$\s*|\.)?([A-Za-z_][A-Za-z0-9_]*)/g;
  for (let m = token.exec(code); m !== null; m = token.exec(code)) {
    const prefix = m[1] ?? '';
    const name = m[2] as string;
    if (prefix.startsWith('$')) {
      if (name === 'ENV') return '$ENV';
      continue;
    }
    // A field (`.env`) is data. Anything else is refused, even an object key (`{env: 1}`): telling
    // a key from a slice bound (`.[env:]`) takes a parser, and refusing a key only costs a retry.
    if (prefix === '.' || !DENIED.has(name)) continue;
    return name;
  }
  return null;
}
