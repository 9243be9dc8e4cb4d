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

export type ScriptLanguage = 'shell' | 'python' | 'unknown';

const SHELL_EXTENSIONS = /\.(?:sh|bash|zsh|ksh|dash|bats|envrc)$/;

/** The language of a non-TS script, by extension or shebang; `unknown` for an extension-less file without one. */
export function scriptLanguage(path: string, text: string): ScriptLanguage | null {
  if (SHELL_EXTENSIONS.test(path) || path.endsWith('/.envrc') || path === '.envrc') return 'shell';
  if (path.endsWith('.py')) return 'python';
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base.includes('.')) return null;
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!shebang) return 'unknown';
  const program = shebang[1]?.endsWith('/env') ? (shebang[2] ?? '') : (shebang[1] ?? '');
  if (/python/.test(program)) return 'python';
  if (/(?:^|\/)(?:ba|z|k|da)?sh$/.test(program)) return 'shell';
  return 'unknown';
}

/** A module path's extension as an import specifier may leave it out (`.ts`, `.d.ts`, `.mjs`, …). */
export const MODULE_EXTENSION = /(?:\.d)?\.[mc]?[jt]sx?$/;

/** A module path as an import can name it: without its extension, a directory's `index` as the directory. */
export function moduleStem(path: string): string {
  return path.replace(MODULE_EXTENSION, '').replace(/\/index$/, '');
}
