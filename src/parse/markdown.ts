import { createRequire } from 'node:module';
import type { Env, MarkdownIt, Token } from 'markdown-it';

let loaded: MarkdownIt | undefined;

/**
 * How deep blocks may nest before markdown-it stops reading (its default, 100,
 * let 50 levels of `- ` hide the rest of a file). Its block and inline parsers
 * recurse per level and overflow the stack near 1,800 levels; this leaves room.
 */
export const MAX_NESTING = 1000;

/**
 * markdown-it is loaded on first use only, like the TypeScript compiler: a
 * warm run whose Markdown facts are all cached never pays for it.
 */
function parser(): MarkdownIt {
  if (!loaded) {
    const create: (options: { html: boolean; maxNesting: number }) => MarkdownIt = createRequire(import.meta.url)('markdown-it');
    loaded = create({ html: true, maxNesting: MAX_NESTING });
  }
  return loaded;
}

export interface ReferenceDefinition {
  label: string;
  href: string;
}

export interface ParsedMarkdown {
  tokens: Token[];
  /** `[label]: target` definitions, which leave no token of their own. */
  references: ReferenceDefinition[];
  /**
   * The 0-based line of the block that reached MAX_NESTING, or null: markdown-it
   * skips what is nested deeper without a word, so the caller must say so.
   */
  truncatedAt: number | null;
}

export function parseMarkdown(text: string): ParsedMarkdown {
  const env: Env = {};
  const tokens = parser().parse(text, env);
  const references = Object.entries(env.references ?? {}).map(([label, value]) => ({ label, href: value.href }));
  // An opening block token at the last level leaves the block parser at MAX_NESTING: what it holds is not tokenized.
  const capped = tokens.find((token) => token.nesting === 1 && token.level >= MAX_NESTING - 1);
  return { tokens, references, truncatedAt: capped ? (capped.map?.[0] ?? 0) : null };
}

export { isMarkdownFile } from '../util/file-kinds.js';
