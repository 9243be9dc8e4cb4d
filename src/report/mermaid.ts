import type { ChainLink } from '../types.js';
import { truncate } from './markdown-text.js';

// Mermaid's own entity codes (`#quot;`, `#35;`): inside a quoted label they are the only way
// to write `"`, and they keep `#`, a backtick (which could close the Markdown fence), HTML
// characters and `@` (a mention, where a renderer takes one) from meaning anything. The
// parser accepts any other character there.
const CODES: Record<string, string> = { '"': '#quot;', '#': '#35;', '`': '#96;', '<': '#lt;', '>': '#gt;', '&': '#amp;', '@': '#64;' };

const MAX_LABEL = 160;
/** Steps kept from each end of a longer chain; the middle is one "… N more steps" node. */
const KEEP = 5;

export function mermaidLabel(text: string): string {
  const flat = truncate(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '), MAX_LABEL);
  return `"${flat.replace(/["#`<>&@]/g, (char) => CODES[char] ?? char)}"`;
}

/**
 * A step as a node shows it: its label, with the file in it as the repository names it and
 * the line (`judge (test/helpers/judge.ts:17)`); an SDK, which has no place, by name.
 */
function stepText(link: ChainLink, path: (file: string) => string): string {
  const at = link.line === undefined ? path(link.file) : `${path(link.file)}:${link.line}`;
  const index = link.label.indexOf(link.file);
  if (index !== -1) return `${link.label.slice(0, index)}${at}${link.label.slice(index + link.file.length)}`;
  return link.line === undefined ? link.label : `${link.label} (${at})`;
}

/** A left-to-right flowchart of the chain, one node per step, in a fenced `mermaid` block. */
export function chainFlowchart(chain: readonly ChainLink[], path: (file: string) => string = (file) => file): string {
  const steps = chain.map((link) => stepText(link, path));
  const shown = steps.length <= 2 * KEEP + 1 ? steps : [...steps.slice(0, KEEP), `… ${steps.length - 2 * KEEP} more steps`, ...steps.slice(-KEEP)];
  const nodes = shown.map((label, index) => `  n${index}[${mermaidLabel(label)}]`);
  const edges = shown.slice(1).map((_, index) => `  n${index} --> n${index + 1}`);
  return ['```mermaid', 'flowchart LR', ...nodes, ...edges, '```'].join('\n');
}
