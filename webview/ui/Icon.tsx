/** A codicon glyph (the font ships in media/codicons). Decorative unless given a label. */
export function Icon({ name, label, class: cls }: { name: string; label?: string; class?: string }) {
  const classes = `codicon codicon-${name}${cls ? ` ${cls}` : ''}`;
  return label ? <span class={classes} role="img" aria-label={label} /> : <span class={classes} aria-hidden="true" />;
}
