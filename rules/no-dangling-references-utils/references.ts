import { posix } from 'node:path';
import type { RepoModel } from '../../src/model/model.js';
import { scanText, shippedFiles, testAreas } from '../../src/analysis/seams.js';
import { isAllowed, isIllustrative, pathCandidates, pathExists, pathTokens, subLoc, textRuns, type RunWhere } from '../../src/analysis/text-scan.js';
import { scriptLanguage } from '../../src/util/file-kinds.js';
import { SHELL_LANGUAGES } from '../../src/vocab/languages.js';
import { isMarkdownFile } from '../../src/util/file-kinds.js';
import { isScriptFile } from '../../src/util/file-kinds.js';
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
  /** Part of a command (a shell block, a script line): it runs in the user's working directory. */
  command?: boolean;
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
  const runs = textRuns(model, file) ?? [];
  const program = runs.some((run) => run.where === 'line') && isProgram(file, scanText(model, file) ?? '');
  for (const run of runs) {
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
    // A comment in a script or config file is prose about it, not a path it uses.
    const text = run.where === 'line' ? run.text.replace(/(?:^|\s)(?:#|\/\/).*$/, '') : run.text;
    const command = (run.where === 'line' && program) || (run.fence !== undefined && SHELL_LANGUAGES.has(run.fence.lang));
    for (const { token, index } of pathTokens(text)) {
      refs.push({ file, written: token, candidates: pathCandidates(token, file), loc: subLoc(run.loc, index, token.length), where: run.where, ...(illustrative && { illustrative }), ...(command && { command }) });
    }
  }
  return refs;
}

/** A shell or Python script: what it names, it opens from the directory it runs in. */
function isProgram(file: string, text: string): boolean {
  const language = scriptLanguage(file, text);
  return language === 'shell' || language === 'python';
}

/** A path ending in a file name with an extension. */
const FILE_NAME = /\.[A-Za-z0-9]+$/;

/** `<name>`, `{id}`, `YYYY-MM-DD`, `XXX`, `$VAR`, `…`: a template for a path, not a path. */
const PLACEHOLDER = /[<>{}$*]|\bY{4}\b|\bYYYY|\bMM-DD\b|\bX{3,}\b|\.{3}|\u2026/;

interface ShippedLayout {
  /** The directories that hold a shipped file, and their ancestors. */
  dirs: Set<string>;
  /** The file names shipped anywhere. */
  names: Set<string>;
}

const LAYOUT = {};

/** Where shipped files are: what a reader of shipped text can find beside it. */
function shippedLayout(model: RepoModel): ShippedLayout {
  return model.memo(LAYOUT, () => {
    const layout: ShippedLayout = { dirs: new Set(), names: new Set() };
    for (const file of shippedFiles(model)) {
      layout.names.add(posix.basename(file));
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) layout.dirs.add(file.slice(0, slash));
    }
    return layout;
  });
}

/**
 * The places a path written in shipped text names in this repository, or
 * null when it names none: a link target; a path relative to the file in
 * inline code whose directory exists; or a path ending in a file name with
 * an extension whose first directory holds shipped files at the root, or
 * exists beside the file with the path's own directory. Everything else is a
 * location in the user's project, an output directory, an example or a
 * slash-joined phrase (`and/or`, `review/diff`): not a reference.
 */
function repoCandidates(model: RepoModel, ref: PathRef): string[] | null {
  const dirs = testAreas(model).dirs;
  if (ref.where === 'link') {
    // MDX pages are rendered by a site generator: a link without a file extension is one of its routes.
    if (ref.file.endsWith('.mdx') && !ref.written.startsWith('#') && !FILE_NAME.test(ref.written)) return null;
    // `/providers/openai` on a documentation site is a route unless the repository has that top-level entry.
    const top = ref.written.startsWith('/') ? (ref.written.slice(1).split('/')[0] ?? '') : null;
    return top === null || dirs.has(top) || model.fileSet.has(top) ? ref.candidates : null;
  }
  if (PLACEHOLDER.test(ref.written)) return null;
  const parentExists = (path: string): boolean => {
    const parent = posix.dirname(path);
    return parent === '.' || dirs.has(parent);
  };
  const written = ref.written;
  const last = written.split('/').at(-1) ?? '';
  // A file name with an extension: `./setup` is a command, `out/` a directory made at run time.
  if (!FILE_NAME.test(last)) return null;
  if (written.startsWith('./') || written.startsWith('../')) {
    if (ref.where !== 'code' || last.startsWith('-')) return null;
    const candidates = ref.candidates.filter(parentExists);
    // The same name shipped elsewhere: the text is relative to another place it describes.
    if (candidates.length === 0 || shippedLayout(model).names.has(last)) return null;
    return candidates;
  }
  const first = written.split('/')[0] ?? '';
  const held = shippedLayout(model).dirs;
  const beside = posix.join(posix.dirname(ref.file), first);
  const bases = [held.has(first) ? '' : null, dirs.has(beside) ? posix.dirname(ref.file) : null].filter((base) => base !== null);
  // Under a top-level directory that holds shipped files, a missing directory is the defect (a removed
  // skill still named); beside the file, only a path whose directory exists is one this text describes.
  const candidates = bases.map((base) => posix.normalize(posix.join(base, written))).filter((path, i) => (bases[i] === '' ? true : parentExists(path)));
  return candidates.length === 0 ? null : candidates;
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
export function missingReferences(model: RepoModel, file: string): RuleFinding<'missingPath' | 'missingAnchor'>[] {
  const findings: RuleFinding<'missingPath' | 'missingAnchor'>[] = [];
  for (const ref of pathRefs(model, file)) {
    // A string in code or a command is a path opened from the working directory, the user's project: absent
    // here, it is no evidence (the diff check still reports one that names a file the diff deleted).
    if (ref.where === 'import' || ref.where === 'text' || ref.where === 'string' || ref.command || ref.illustrative) continue;
    const candidates = repoCandidates(model, ref);
    if (candidates === null || candidates.length === 0 || isAllowed(model, ref.written, file)) continue;
    const target = candidates.find((candidate) => pathExists(model, candidate));
    if (target === undefined) {
      const primary = candidates.at(-1) ?? ref.written;
      const hint = nearest(model, primary);
      findings.push({ messageId: 'missingPath', file, loc: ref.loc, message: `names ${ref.written}, which does not exist${hint ? ` (did you mean ${hint}?)` : ''}: a reader told to use it finds nothing. Fix the path or remove the reference.` });
      continue;
    }
    if (ref.anchor === undefined || ref.anchor === '' || !isMarkdownFile(target)) continue;
    const defined = anchorsOf(model, target);
    if (!defined || defined.anchors.has(ref.anchor.toLowerCase()) || isAllowed(model, `#${ref.anchor}`, file)) continue;
    const hint = closest(ref.anchor, defined.headings);
    const where = target === file ? 'this file' : target;
    findings.push({ messageId: 'missingAnchor', file, loc: ref.loc, message: `links to #${ref.anchor} in ${where}, which has no such heading${hint ? ` (did you mean #${hint}?)` : ''}: the heading was renamed or removed. Update the anchor.` });
  }
  return findings;
}
