import { createRequire } from 'node:module';
import type { Env, MarkdownIt, Token } from 'markdown-it';

let loaded: MarkdownIt | undefined;

/**
 * markdown-it is loaded on first use only, like the TypeScript compiler: a
 * warm run whose Markdown facts are all cached never pays for it.
 */
function parser(): MarkdownIt {
  if (!loaded) {
    const create: (options: { html: boolean }) => MarkdownIt = createRequire(import.meta.url)('markdown-it');
    loaded = create({ html: true });
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
}

export function parseMarkdown(text: string): ParsedMarkdown {
  const env: Env = {};
  const tokens = parser().parse(text, env);
  const references = Object.entries(env.references ?? {}).map(([label, value]) => ({ label, href: value.href }));
  return { tokens, references };
}

const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdx', '.mdc'] as const;

export function isMarkdownFile(path: string): boolean {
  const lower = path.toLowerCase();
  return MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
