import type { Token } from 'markdown-it';
import type { Node as YamlNode } from 'yaml';
import { loadYaml } from '../parse/yaml.js';
import { MAX_NESTING, parseMarkdown } from '../parse/markdown.js';
import { outOfStack } from '../parse/typescript.js';
import type { Loc } from '../types.js';
import { shellScriptEnvRefs } from './env-lexical.js';
import { splitShell } from './shell.js';
import type { FenceFact, FrontMatterEntry, HeadingFact, LexicalEnvRef, LinkFact, MarkdownFacts, TextRun } from './types.js';
import { SHELL_LANGUAGES } from '../vocab/languages.js';

export { SHELL_LANGUAGES } from '../vocab/languages.js';


/**
 * Facts of one Markdown file from one markdown-it parse. markdown-it gives
 * block tokens line ranges only, so inline positions are recovered by
 * searching the block's source lines in token order.
 */
export function extractMarkdownFacts(source: string): MarkdownFacts {
  try {
    return extract(source);
  } catch (error) {
    const reason = outOfStack(error);
    if (reason === null) throw error;
    return { kind: 'markdown', frontMatter: null, headings: [], htmlAnchors: [], links: [], code: [], fences: [], text: [], parseErrors: [{ message: reason, loc: { line: 1, column: 1, endLine: 1, endColumn: 1 } }], outOfStack: true };
  }
}

function extract(source: string): MarkdownFacts {
  const lines = source.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const facts: MarkdownFacts = { kind: 'markdown', frontMatter: null, headings: [], htmlAnchors: [], links: [], code: [], fences: [], text: [], parseErrors: [] };

  let body = source;
  const end = frontMatterEnd(lines);
  if (end !== null) {
    facts.frontMatter = frontMatter(lines, end, facts);
    // Blank lines keep markdown-it's line numbers equal to the file's.
    body = `${'\n'.repeat(end + 1)}${lines.slice(end + 1).join('\n')}`;
  }

  const { tokens, references, truncatedAt } = parseMarkdown(body);
  if (truncatedAt !== null) {
    const line = truncatedAt + 1;
    facts.parseErrors.push({
      message: `blocks nest deeper than ${MAX_NESTING} levels at line ${line}: the Markdown parser stops there, and nothing nested deeper was read`,
      loc: { line, column: 1, endLine: line, endColumn: (lines[truncatedAt]?.length ?? 0) + 1 },
    });
  }
  const headings: { level: number; text: string; loc: Loc }[] = [];
  let lastMap: [number, number] = [0, 1];
  let floor: Cursor = { line: 0, column: 0 };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.map) lastMap = [token.map[0], token.map[1]];
    if (token.type === 'inline') {
      const heading = tokens[i - 1]?.type === 'heading_open' ? tokens[i - 1] : undefined;
      const { text, end: after } = inline(token, token.map ?? lastMap, lines, facts, floor);
      floor = after;
      if (heading) {
        const line = (token.map ?? lastMap)[0];
        headings.push({ level: Number(heading.tag.slice(1)), text, loc: { line: line + 1, column: 1, endLine: line + 1, endColumn: (lines[line]?.length ?? 0) + 1 } });
      }
    } else if (token.type === 'fence' || token.type === 'code_block') {
      facts.fences.push(fence(token, token.map ?? lastMap, lines));
    } else if (token.type === 'html_block') {
      const start = (token.map ?? lastMap)[0];
      token.content.split('\n').forEach((text, offset) => {
        if (text.trim() !== '') facts.text.push(runAt(lines, start + offset, text));
      });
      facts.htmlAnchors.push(...htmlAnchors(token.content));
    }
  }
  facts.headings = withAnchors(headings);
  facts.links.push(...definitions(references, lines));
  return facts;
}

// ---- front matter

function frontMatterEnd(lines: readonly string[]): number | null {
  if (lines[0] !== '---') return null;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '---' || lines[i] === '...') return i;
  }
  return null;
}

function frontMatter(lines: readonly string[], end: number, facts: MarkdownFacts): { entries: FrontMatterEntry[]; lines: TextRun[] } {
  const text = lines.slice(1, end).join('\n');
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = loadYaml();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  const locOf = (start: number, stop: number): Loc => {
    const a = counter.linePos(start);
    const b = counter.linePos(stop);
    return { line: a.line + 1, column: a.col, endLine: b.line + 1, endColumn: b.col };
  };
  for (const error of doc.errors) {
    const [start, stop] = error.pos;
    facts.parseErrors.push({ message: `front matter: ${error.message.split('\n')[0] ?? error.code}`, loc: locOf(start, stop) });
  }
  const entries: FrontMatterEntry[] = [];
  const walk = (node: YamlNode | null | undefined, path: string[], keyLoc: Loc): void => {
    if (isMap(node)) {
      if (path.length > 0) entries.push({ key: path.join('.'), value: null, loc: keyLoc });
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : null;
        if (key === null) continue;
        const range = isScalar(pair.key) ? pair.key.range : null;
        const valueNode = isScalar(pair.value) || isMap(pair.value) || isSeq(pair.value) ? pair.value : null;
        walk(valueNode, [...path, key], range ? locOf(range[0], range[1]) : keyLoc);
      }
    } else if (isSeq(node)) {
      if (path.length > 0) entries.push({ key: path.join('.'), value: null, loc: keyLoc });
      node.items.forEach((item, index) => {
        const child = isScalar(item) || isMap(item) || isSeq(item) ? item : null;
        walk(child, [...path, String(index)], child?.range ? locOf(child.range[0], child.range[1]) : keyLoc);
      });
    } else if (isScalar(node)) {
      const range = node.range;
      entries.push({ key: path.join('.'), value: node.value === null ? null : String(node.value), loc: range ? locOf(range[0], range[1]) : keyLoc });
    } else if (path.length > 0) {
      entries.push({ key: path.join('.'), value: null, loc: keyLoc });
    }
  };
  const contents = doc.contents;
  walk(isScalar(contents) || isMap(contents) || isSeq(contents) ? contents : null, [], { line: 2, column: 1, endLine: 2, endColumn: 1 });
  const runs: TextRun[] = [];
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '') runs.push({ text: line, loc: { line: i + 1, column: 1, endLine: i + 1, endColumn: line.length + 1 } });
  }
  return { entries, lines: runs };
}

// ---- inline content

interface Cursor {
  line: number;
  column: number;
}

/** Finds strings in a block's source lines in order, from a cursor that only moves forward. */
class Locator {
  private cursor: Cursor;

  constructor(
    private readonly lines: readonly string[],
    start: Cursor,
    private readonly end: number,
  ) {
    this.cursor = start;
  }

  get position(): Cursor {
    return this.cursor;
  }

  /** The 0-based line and column of `text` at or after the cursor, or null. */
  peek(text: string): Cursor | null {
    if (text === '') return null;
    for (let line = this.cursor.line; line < this.end; line++) {
      const from = line === this.cursor.line ? this.cursor.column : 0;
      const column = (this.lines[line] ?? '').indexOf(text, from);
      if (column !== -1) return { line, column };
    }
    return null;
  }

  moveTo(at: Cursor): void {
    if (at.line > this.cursor.line || (at.line === this.cursor.line && at.column > this.cursor.column)) this.cursor = at;
  }

  /** Finds a match of `pattern` (not global) and moves past it. */
  takeMatch(pattern: RegExp): Loc | null {
    for (let line = this.cursor.line; line < this.end; line++) {
      const from = line === this.cursor.line ? this.cursor.column : 0;
      const match = pattern.exec((this.lines[line] ?? '').slice(from));
      if (!match) continue;
      const column = from + match.index;
      this.moveTo({ line, column: column + match[0].length });
      return { line: line + 1, column: column + 1, endLine: line + 1, endColumn: column + match[0].length + 1 };
    }
    return null;
  }

  /** Finds `text` and moves past it. */
  take(text: string): Loc | null {
    const at = this.peek(text);
    if (!at) return null;
    this.moveTo({ line: at.line, column: at.column + text.length });
    return { line: at.line + 1, column: at.column + 1, endLine: at.line + 1, endColumn: at.column + text.length + 1 };
  }
}

/** Records the runs, code spans and links of an inline token; returns its plain text (for headings) and where it ended. */
function inline(token: Token, map: [number, number], lines: readonly string[], facts: MarkdownFacts, floor: Cursor): { text: string; end: Cursor } {
  // Table cells share a line: each starts where the previous one ended.
  const start = floor.line === map[0] ? floor : { line: map[0], column: 0 };
  const locator = new Locator(lines, start, Math.max(map[1], map[0] + 1));
  let plain = '';
  let linkEnd: Cursor | null = null;
  for (const child of token.children ?? []) {
    switch (child.type) {
      case 'text':
      case 'html_inline': {
        plain += child.type === 'text' ? child.content : '';
        facts.text.push(...locateText(locator, child.content));
        if (child.type === 'html_inline') facts.htmlAnchors.push(...htmlAnchors(child.content));
        break;
      }
      case 'code_inline': {
        plain += child.content;
        const loc = locator.take(child.content) ?? locateText(locator, child.content)[0]?.loc;
        if (loc) facts.code.push({ text: child.content, loc });
        break;
      }
      case 'link_open':
      case 'image': {
        const target = String(child.attrGet(child.type === 'image' ? 'src' : 'href') ?? '');
        if (child.markup === 'autolink' || child.markup === 'linkify') break;
        const found = findTarget(locator, target);
        if (found) {
          facts.links.push({ kind: child.type === 'image' ? 'image' : 'link', target: found.text, loc: found.loc });
          const after = { line: found.loc.line - 1, column: found.loc.endColumn - 1 };
          if (child.type === 'image') locator.moveTo(after);
          else linkEnd = after;
        }
        break;
      }
      case 'link_close':
        if (linkEnd) locator.moveTo(linkEnd);
        linkEnd = null;
        break;
      default:
        break;
    }
  }
  return { text: plain, end: locator.position };
}

/** The target as written after `](`, or null for a reference-style link (its definition is recorded instead). */
function findTarget(locator: Locator, href: string): { text: string; loc: Loc } | null {
  const candidates = [href, safeDecode(href)];
  for (const candidate of candidates) {
    for (const prefix of ['](<', '](', ']( ']) {
      const at = locator.peek(`${prefix}${candidate}`);
      if (at) {
        const line = at.line + 1;
        const column = at.column + prefix.length + 1;
        return { text: candidate, loc: { line, column, endLine: line, endColumn: column + candidate.length } };
      }
    }
  }
  return null;
}

function safeDecode(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** A text child as one run when it is found verbatim, else word by word (escapes and entities change the text). */
function locateText(locator: Locator, text: string): TextRun[] {
  if (text.trim() === '') return [];
  const whole = locator.take(text);
  if (whole) return [{ text, loc: whole }];
  const runs: TextRun[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    const loc = locator.take(word) ?? locator.takeMatch(escapedForm(word));
    if (loc) runs.push({ text: word, loc });
  }
  return runs;
}

/** `CMR_FIXTURE` as it may be written in the source: `CMR\_FIXTURE`. */
function escapedForm(word: string): RegExp {
  return new RegExp([...word].map((char) => (/[!-/:-@[-`{-~]/.test(char) ? `\\\\?\\${char}` : char)).join(''));
}

// ---- code blocks

function fence(token: Token, map: [number, number], lines: readonly string[]): FenceFact {
  const info = token.type === 'fence' ? token.info.trim() : '';
  const lang = (info.split(/[\s{]/)[0] ?? '').toLowerCase();
  const first = token.type === 'fence' ? map[0] + 1 : map[0];
  const opening = lines[map[0]] ?? '';
  const content = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
  const runs: TextRun[] = [];
  content.split('\n').forEach((text, offset) => {
    if (text.trim() !== '') runs.push(runAt(lines, first + offset, text));
  });
  const result: FenceFact = {
    info,
    lang,
    loc: { line: map[0] + 1, column: 1, endLine: map[0] + 1, endColumn: opening.length + 1 },
    lines: runs,
    commands: [],
    env: [],
  };
  if (SHELL_LANGUAGES.has(lang)) {
    const script = runs.map((run) => run.text.replace(/^\s*(?:\$|#|>|PS>)\s+/, '')).join('\n').replace(/\\\n/g, ' ');
    result.commands = splitShell(script);
    // One block is one script: a variable it assigns itself is its own local.
    const refs = shellScriptEnvRefs(runs.map((run) => run.text));
    result.env = runs.flatMap((run, index) => (refs[index] ?? []).map((ref): LexicalEnvRef => ({ name: ref.name, op: ref.op, loc: offsetLoc(run.loc, ref.index, ref.name.length) })));
  }
  return result;
}

/** A run for `text` on source line `line` (0-based), at the column where the line holds it. */
function runAt(lines: readonly string[], line: number, text: string): TextRun {
  const source = lines[line] ?? '';
  const index = source.indexOf(text);
  const column = index === -1 ? 1 : index + 1;
  return { text, loc: { line: line + 1, column, endLine: line + 1, endColumn: column + text.length } };
}

export function offsetLoc(run: Loc, index: number, length: number): Loc {
  return { line: run.line, column: run.column + index, endLine: run.line, endColumn: run.column + index + length };
}

// ---- anchors and definitions

function htmlAnchors(html: string): string[] {
  return [...html.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/g)].map((match) => match[1] ?? '').filter(Boolean);
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens (github-slugger). */
export function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function withAnchors(headings: { level: number; text: string; loc: Loc }[]): HeadingFact[] {
  const seen = new Map<string, number>();
  return headings.map((heading) => {
    const base = githubSlug(heading.text);
    let anchor = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(anchor)) anchor = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(anchor, 0);
    return { ...heading, anchor };
  });
}

function definitions(references: readonly { label: string; href: string }[], lines: readonly string[]): LinkFact[] {
  const links: LinkFact[] = [];
  for (const { label, href } of references) {
    for (let i = 0; i < lines.length; i++) {
      const match = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s|$)/d.exec(lines[i] ?? '');
      const span = match?.indices?.[2];
      if (!match || !span || (match[1] ?? '').trim().replace(/\s+/g, ' ').toUpperCase() !== label.toUpperCase()) continue;
      const target = match[2] ?? href;
      links.push({ kind: 'definition', target, loc: { line: i + 1, column: span[0] + 1, endLine: i + 1, endColumn: span[1] + 1 } });
      break;
    }
  }
  return links;
}
