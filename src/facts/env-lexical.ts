export { scriptLanguage, type ScriptLanguage } from '../util/file-kinds.js';

/** An env var named on one line of a shell or Python script, by offset in that line. */
export interface LineEnvRef {
  name: string;
  op: 'set' | 'read';
  index: number;
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
// Shell variables are env vars only by convention: upper case, or they are the script's own locals (`$pr`, `$1`).
const SHELL_NAME = '[A-Z][A-Z0-9_]*';
// `${X}` and its operators (`${X:-d}`, `${X#p}`, `${X[0]}`); `${X.y}` is a JavaScript template, not shell.
const SHELL_READ = new RegExp(`\\$(?:\\{(${SHELL_NAME})(?=[}:#%/^,[@*?=+-])|(${SHELL_NAME})\\b)`, 'dg');
// `X=…` where a word starts: at the line start, after a separator, or after `export`/`env`/`local`/`readonly`.
const SHELL_SET = new RegExp(`(^|[\\s;&|(\`])((?:export|readonly|local|declare(?:\\s+-\\w+)*|env(?:\\s+-\\S+)*)\\s+)?(${SHELL_NAME})(?==)`, 'dg');

function collect(line: string, re: RegExp, group: number, op: 'set' | 'read', into: LineEnvRef[]): void {
  for (const match of line.matchAll(re)) {
    const name = match[group];
    const span = match.indices?.[group];
    if (name !== undefined && span) into.push({ name, op, index: span[0] });
  }
}

/** Env vars a shell line reads (`$X`, `${X:-d}`) or sets (`X=1 cmd`, `export X=1`, `env X=1 cmd`). */
export function shellEnvRefs(line: string): LineEnvRef[] {
  const refs: LineEnvRef[] = [];
  collect(line, SHELL_READ, 1, 'read', refs);
  collect(line, SHELL_READ, 2, 'read', refs);
  collect(line, SHELL_SET, 3, 'set', refs);
  return refs.sort((a, b) => a.index - b.index);
}

const PY_PATTERNS: { re: RegExp; op: 'set' | 'read' }[] = [
  { re: new RegExp(`(?:\\bos\\.)?\\bgetenv\\(\\s*['"](${NAME})['"]`, 'dg'), op: 'read' },
  { re: new RegExp(`\\benviron\\.get\\(\\s*['"](${NAME})['"]`, 'dg'), op: 'read' },
  { re: new RegExp(`\\benviron\\[\\s*['"](${NAME})['"]\\s*\\](?!\\s*=[^=])`, 'dg'), op: 'read' },
  { re: new RegExp(`['"](${NAME})['"]\\s+(?:not\\s+)?in\\s+(?:os\\.)?environ\\b`, 'dg'), op: 'read' },
  { re: new RegExp(`\\benviron\\[\\s*['"](${NAME})['"]\\s*\\]\\s*=(?!=)`, 'dg'), op: 'set' },
  { re: new RegExp(`\\benviron\\.(?:setdefault|pop)\\(\\s*['"](${NAME})['"]`, 'dg'), op: 'set' },
  { re: new RegExp(`\\bputenv\\(\\s*['"](${NAME})['"]`, 'dg'), op: 'set' },
];

/** Env vars a Python line reads (`os.environ["X"]`, `os.getenv("X")`) or sets (`os.environ["X"] = …`). */
export function pythonEnvRefs(line: string): LineEnvRef[] {
  const refs: LineEnvRef[] = [];
  for (const { re, op } of PY_PATTERNS) collect(line, re, 1, op, refs);
  return refs.sort((a, b) => a.index - b.index);
}



/** Quoted strings, arithmetic and command substitutions, which may hold spaces or separators inside one shell word. */
const WORD_PARTS = /"(?:[^"\\]|\\.)*"|'[^']*'|\$\(\([^()]*\)\)|\$\([^()]*\)|`[^`]*`/g;
/** A simple command that is only an assignment (`X=1`, `local X=$(…)`): the script's own variable. */
const ASSIGNMENT_ONLY = new RegExp(`^\\s*(?:(?:local|readonly|typeset|declare(?:\\s+-[a-wyzA-Z]+)*)\\s+)?(${SHELL_NAME})(?:\\[[^\\]]*\\])?\\+?=\\S*\\s*$`);
/** Names a script binds without `=`: loop variables and `read` targets. */
const LOOP_OR_READ = new RegExp(`^\\s*(?:for\\s+(${SHELL_NAME})\\s+in\\b|(?:while\\s+(?:IFS=\\S*\\s+)?)?read\\s+(?:-[a-zA-Z]*[adnNptu]\\s+\\S+\\s+|-\\w+\\s+)*((?:${SHELL_NAME}\\s*)+))`);
const EXPORTED = new RegExp(`\\b(?:export|declare\\s+-x)\\s+(${SHELL_NAME})\\b`, 'g');
const SEPARATORS = /;|&&|\|\||\||\b(?:then|do|else)\b/;

/** The variables a shell script (or one code block) binds itself: assigned as a command of their own, looped over or read. */
export function shellLocals(lines: readonly string[]): Set<string> {
  const assigned = new Set<string>();
  for (const line of lines) {
    const code = line.replace(WORD_PARTS, '""').replace(/(^|\s)#.*$/, '$1');
    for (const command of code.split(SEPARATORS)) {
      const assignment = ASSIGNMENT_ONLY.exec(command);
      if (assignment?.[1]) assigned.add(assignment[1]);
      const bound = LOOP_OR_READ.exec(command);
      if (bound?.[1]) assigned.add(bound[1]);
      for (const name of bound?.[2]?.trim().split(/\s+/) ?? []) assigned.add(name);
    }
  }
  return assigned;
}

/**
 * Env refs of a whole shell script (or code block), by line: a variable the
 * script binds itself and never exports is its own local, not an env var.
 */
export function shellScriptEnvRefs(lines: readonly string[]): LineEnvRef[][] {
  const assigned = shellLocals(lines);
  const exported = new Set<string>();
  for (const line of lines) for (const match of line.matchAll(EXPORTED)) if (match[1]) exported.add(match[1]);
  return lines.map((line) => shellEnvRefs(line).filter((ref) => !assigned.has(ref.name) || exported.has(ref.name)));
}
