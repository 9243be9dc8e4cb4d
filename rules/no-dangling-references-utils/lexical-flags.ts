import { scriptLanguage } from '../../src/util/file-kinds.js';

// The long flags a shell or Python CLI declares, read from its text: Python's argparse `add_argument('--x')`
// and click/typer `option('--x')`, and the patterns of a shell `case` (`--x)`, `--x|-y)`, `"--x")`).

const PYTHON_DECLARATION = /\b(?:add_argument|option|Option)\(([^)]*)/g;
const QUOTED_FLAG = /(['"])(--[A-Za-z][\w-]*)\1/g;
const CASE_PATTERN = /^\s*\(?\s*((?:["']?-{1,2}[A-Za-z][\w-]*["']?\s*\|\s*)*["']?-{1,2}[A-Za-z][\w-]*["']?)\s*\)/;

/** The long flags of a shell or Python script (by extension or `#!` line), each once, with its 1-based line; none for other files. */
export function lexicalFlags(path: string, text: string): { name: string; line: number }[] {
  const language = scriptLanguage(path, text);
  if (language !== 'python' && language !== 'shell') return [];
  const found = new Map<string, number>();
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const code = line.replace(/(?:^|\s)#.*$/, '');
    if (language === 'python') {
      for (const call of code.matchAll(PYTHON_DECLARATION)) for (const flag of (call[1] ?? '').matchAll(QUOTED_FLAG)) if (!found.has(flag[2] ?? '')) found.set(flag[2] ?? '', index + 1);
    } else {
      const pattern = CASE_PATTERN.exec(code);
      for (const alternative of pattern?.[1]?.split('|') ?? []) {
        const name = alternative.trim().replace(/^["']|["']$/g, '');
        if (name.startsWith('--') && !found.has(name)) found.set(name, index + 1);
      }
    }
  }
  return [...found].map(([name, line]) => ({ name, line }));
}

const PYTHON_SUBCOMMAND = /\badd_parser\(\s*(['"])([A-Za-z][\w-]*)\1/g;
const JS_SUBCOMMAND = /\.command\(\s*(['"`])([A-Za-z][\w-]*)/g;
const SHELL_CASE_ON_FIRST = /^\s*case\s+"?\$\{?1(?::-[^}]*)?\}?"?\s+in\b/;
const SHELL_WORD_PATTERN = /^\s*\(?\s*((?:["']?[A-Za-z][\w-]*["']?\s*\|\s*)*["']?[A-Za-z][\w-]*["']?)\s*\)/;

/**
 * The subcommands a CLI declares, read from its text: argparse's
 * `add_parser('x')`, commander/yargs/cac `.command('x …')`, and the word
 * patterns of a shell `case` on `$1`.
 */
export function lexicalSubcommands(path: string, text: string, isJavaScript: boolean): Set<string> {
  const language = isJavaScript ? 'js' : scriptLanguage(path, text);
  const found = new Set<string>();
  if (language === 'python') for (const match of text.matchAll(PYTHON_SUBCOMMAND)) found.add(match[2] ?? '');
  if (language === 'js') for (const match of text.matchAll(JS_SUBCOMMAND)) found.add(match[2] ?? '');
  if (language === 'shell') {
    let depth = 0;
    for (const line of text.split('\n')) {
      const code = line.replace(/(?:^|\s)#.*$/, '');
      if (SHELL_CASE_ON_FIRST.test(code)) depth = 1;
      else if (depth > 0 && /^\s*case\b/.test(code)) depth += 1;
      else if (depth > 0 && /^\s*esac\b/.test(code)) depth -= 1;
      else if (depth === 1) {
        for (const alternative of SHELL_WORD_PATTERN.exec(code)?.[1]?.split('|') ?? []) found.add(alternative.trim().replace(/^["']|["']$/g, ''));
      }
    }
  }
  found.delete('');
  return found;
}
