// Text from the checked repository (file names, test ids, messages that quote them) is
// attacker-controlled: a pull request chooses its file names. In a report rendered as
// GitHub Markdown it must stay text: no table cell split by `|`, no row ended by a newline,
// no HTML, no link (`[` is escaped, so no `![image]` either), no emphasis or math, no
// @-mention pinging someone from a PR comment.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '@': '&#64;', '#': '&#35;' };

/** Text for a Markdown table cell or paragraph: it renders as itself and stays on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]|[&<>@#]|[\\`*_[\]~|$]/g, (char) => {
    if (char === '\r\n' || char === '\r' || char === '\n' || char === '\u2028' || char === '\u2029') return '<br>';
    return ENTITIES[char] ?? `\\${char}`;
  });
}

/** At most `max` characters (code points), with an ellipsis when cut: one hostile name must not fill the report. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** A GFM table; every cell must already be escaped. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
