/**
 * A small glob matcher with ripgrep's `--glob` meaning: a glob without `/` matches the file name
 * anywhere; one with `/` matches the path relative to the search root. `*` and `?` stay inside one
 * path segment, `**` crosses segments, `[...]` and `{a,b}` work as in a shell, `!` in front negates.
 */

export type GlobMatcher = (relPath: string) => boolean;

export function compileGlob(glob: string): GlobMatcher {
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const anchored = body.includes('/');
  const re = new RegExp(`^${globToRegExpSource(body.replace(/^\//, ''))}$`);
  return (relPath) => {
    const subject = anchored ? relPath : relPath.slice(relPath.lastIndexOf('/') + 1);
    return re.test(subject) !== negated;
  };
}

export function globToRegExpSource(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegExp(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:[^/]*/)*';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        out += `[${cls.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += escapeRegExp(c);
    }
  }
  return out + ')'.repeat(braces);
}

function escapeRegExp(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
