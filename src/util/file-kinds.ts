// What kind of file a path names, by its extension alone: no parser is loaded to ask.

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/** A TS/JS module tripwire parses (declaration files are not code that runs). */
export function isScriptFile(path: string): boolean {
  return SCRIPT_EXTENSIONS.some((ext) => path.endsWith(ext)) && !path.endsWith('.d.ts');
}

const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdx', '.mdc'] as const;

export function isMarkdownFile(path: string): boolean {
  const lower = path.toLowerCase();
  return MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
