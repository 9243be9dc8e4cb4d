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
