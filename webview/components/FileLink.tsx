/** A link that asks the host to open a workspace file; the panel's click handler posts it. */
import { FILE_LINK_CLASS } from '../fileRefs';

export function FileLink({ path, line, label }: { path: string; line?: number; label?: string }) {
  return (
    <a
      class={FILE_LINK_CLASS}
      href="#"
      data-file={path}
      data-line={line === undefined ? undefined : String(line)}
      title={`Open ${path}${line !== undefined ? ` at line ${line}` : ''}`}
    >
      {label ?? (line !== undefined ? `${path}:${line}` : path)}
    </a>
  );
}
