import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { testAreas } from '../../src/model/seams.js';
import { isAllowed, isIllustrative, pathCandidates, pathExists, pathTokens, subLoc, textRuns, type RunWhere } from '../../src/model/text-scan.js';
import { isMarkdownFile } from '../../src/parse/markdown.js';
import { isScriptFile } from '../../src/parse/typescript.js';
import type { RuleFinding } from '../../src/rule.js';
import type { Loc } from '../../src/types.js';
import { closest } from '../../src/util/closest.js';

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** Code blocks whose paths are not references: a diff names the paths of another tree. */
const NOT_REFERENCES = new Set(['diff', 'patch']);

/** A path written in a file, with where it may point. */
export interface PathRef {
  file: string;
  written: string;
  candidates: string[];
  loc: Loc;
  where: RunWhere | 'import' | 'string';
  /** For a link: the `#fragment`, decoded. */
  anchor?: string;
  /** Part of an illustrative code block. */
  illustrative?: boolean;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The paths a file names: link targets (resolved from the file's directory,
 * or from the root for `/…`), path-shaped tokens in code spans, code blocks,
 * front matter and prose, string literals and relative imports of scripts.
 */
export function pathRefs(model: RepoModel, file: string): PathRef[] {
  const refs: PathRef[] = [];
  if (isScriptFile(file)) {
    const facts = model.facts(file);
    for (const literal of facts?.strings ?? []) {
      if (literal.value.includes('/')) refs.push({ file, written: literal.value, candidates: pathCandidates(literal.value, file), loc: literal.loc, where: 'string' });
    }
    for (const fact of facts?.imports ?? []) {
      if (fact.specifier.startsWith('.')) refs.push({ file, written: fact.specifier, candidates: pathCandidates(fact.specifier, file).filter((c) => !c.startsWith('..')), loc: fact.loc, where: 'import' });
    }
    return refs;
  }
  for (const run of textRuns(model, file) ?? []) {
    const illustrative = run.fence ? isIllustrative(model, file, run.fence) : false;
    if (run.fence && NOT_REFERENCES.has(run.fence.lang)) continue;
    if (run.where === 'link') {
      const target = run.text.trim();
      if (target === '' || EXTERNAL.test(target)) continue;
      const hash = target.indexOf('#');
      const path = decode((hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, ''));
      const anchor = hash === -1 ? undefined : decode(target.slice(hash + 1));
      const candidates = path === '' ? [file] : path.startsWith('/') ? pathCandidates(path, file) : [posix.normalize(posix.join(posix.dirname(file), path))].filter((c) => !c.startsWith('..'));
      refs.push({ file, written: path === '' ? target : path, candidates, loc: run.loc, where: 'link', ...(anchor !== undefined && { anchor }) });
      continue;
    }
    for (const { token, index } of pathTokens(run.text)) {
      refs.push({ file, written: token, candidates: pathCandidates(token, file), loc: subLoc(run.loc, index, token.length), where: run.where, ...(illustrative && { illustrative }) });
    }
  }
  return refs;
}

/**
 * Whether a path token is meant as a repository path: explicitly relative,
 * or its first segment names something at the root or beside the file. Other
 * slashed words (`and/or`, `owner/repo`, `application/json`) are not checked.
 */
function looksLikeRepoPath(model: RepoModel, ref: PathRef): boolean {
  if (ref.where === 'link') return true;
  if (/[<>{}]/.test(ref.written)) return false;
  if (ref.written.startsWith('./') || ref.written.startsWith('../')) return ref.where !== 'string';
  const first = ref.written.split('/')[0] ?? '';
  if (first === '' || first.includes('*')) return false;
  const dirs = testAreas(model).dirs;
  if (ref.where === 'string') return dirs.has(first);
  const beside = posix.join(posix.dirname(ref.file), first);
  return dirs.has(first) || model.fileSet.has(first) || dirs.has(beside) || model.fileSet.has(beside);
}

/** An existing sibling whose name is a near miss of the missing one (a typo or a small rename). */
function nearest(model: RepoModel, path: string): string | undefined {
  const dir = posix.dirname(path);
  const siblings = model.files.filter((file) => posix.dirname(file) === dir).map((file) => posix.basename(file));
  const near = closest(posix.basename(path), siblings);
  return near === undefined ? undefined : dir === '.' ? near : `${dir}/${near}`;
}

/** Anchors a Markdown file defines, lower-cased. */
function anchorsOf(model: RepoModel, file: string): { anchors: Set<string>; headings: string[] } | null {
  const facts = model.markdownFacts(file);
  if (!facts) return null;
  const headings = facts.headings.map((heading) => heading.anchor);
  return { anchors: new Set([...headings, ...facts.htmlAnchors].map((anchor) => anchor.toLowerCase())), headings };
}

/** Paths and anchors a shipped file names that do not exist. */
export function missingReferences(model: RepoModel, file: string): RuleFinding[] {
  const findings: RuleFinding[] = [];
  for (const ref of pathRefs(model, file)) {
    if (ref.where === 'import' || ref.where === 'text' || ref.illustrative) continue;
    if (!looksLikeRepoPath(model, ref) || isAllowed(model, ref.written, file)) continue;
    const target = ref.candidates.find((candidate) => pathExists(model, candidate));
    if (target === undefined) {
      const primary = ref.candidates.at(-1) ?? ref.written;
      const hint = nearest(model, primary);
      findings.push({ file, loc: ref.loc, message: `names ${ref.written}, which does not exist${hint ? ` (did you mean ${hint}?)` : ''}: a reader told to use it finds nothing. Fix the path or remove the reference.` });
      continue;
    }
    if (ref.anchor === undefined || ref.anchor === '' || !isMarkdownFile(target)) continue;
    const defined = anchorsOf(model, target);
    if (!defined || defined.anchors.has(ref.anchor.toLowerCase()) || isAllowed(model, `#${ref.anchor}`, file)) continue;
    const hint = closest(ref.anchor, defined.headings);
    const where = target === file ? 'this file' : target;
    findings.push({ file, loc: ref.loc, message: `links to #${ref.anchor} in ${where}, which has no such heading${hint ? ` (did you mean #${hint}?)` : ''}: the heading was renamed or removed. Update the anchor.` });
  }
  return findings;
}
