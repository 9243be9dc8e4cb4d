import { posix } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { paidEntries } from '../config/refs.js';
import { compileGlobs } from '../util/glob.js';
import type { Loc } from '../types.js';
import { Evaluator, type EvalError, type Value } from './evaluate.js';
import type { RepoModel } from '../model/model.js';
import { FILE_START, lineIndex, rangeLoc } from '../model/positions.js';

export type PaidListMessageId = 'missingPaidListFile' | 'missingPaidListExport' | 'unevaluablePaidList' | 'malformedPaidList';

export interface PaidListProblem {
  messageId: PaidListMessageId;
  file: string;
  loc: Loc;
  message: string;
}

/** `tests.paid` with its references read: the globs every rule sees. */
export interface PaidList {
  /** The literal globs and each readable reference's globs, in the order written. */
  globs: string[];
  /** One per reference that could not be read; such a reference contributes no glob. */
  problems: PaidListProblem[];
  /** The globs read from references, each where it is written and with the reference it came from. */
  read: { glob: string; file: string; loc: Loc; ref: string }[];
  /** The files the references were read from (the referenced files and those they import from). */
  files: string[];
}

/**
 * Reads `tests.paid`: literal globs as they are, and each reference evaluated
 * statically, like the maps, to a list of string literals. A reference that
 * cannot be read is one problem, and its globs count as none: the tests it
 * would mark paid are checked as free rather than left out of every check.
 */
export function resolvePaidList(model: RepoModel): PaidList {
  const paid = model.config.tests.paid;
  const entries = paidEntries(model.config);
  const globs: string[] = [];
  const read: PaidList['read'] = [];
  const problems: PaidListProblem[] = [];
  const files = new Set<string>();
  if (entries.every((entry) => typeof entry === 'string')) return { globs: entries.filter((entry) => typeof entry === 'string'), read, problems, files: [] };

  const evaluator = new Evaluator(model);
  const at = configLocator(model);
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === 'string') {
      globs.push(entry);
      continue;
    }
    const keyPath = Array.isArray(paid) ? ['tests', 'paid', index] : ['tests', 'paid'];
    const ref = `${Array.isArray(paid) ? `tests.paid[${index}]` : 'tests.paid'} (${entry.file}${entry.path === undefined ? ` ${entry.export ?? 'default'}` : `#${entry.path}`})`;
    const problem = (messageId: PaidListMessageId, where: { file: string; loc: Loc }, defect: string): void => {
      problems.push({ messageId, ...where, message: `${ref} ${defect}. Until it is fixed it marks no test paid, so the tests it lists are checked as free. ${FIX[messageId]}` });
    };
    if (!model.fileSet.has(entry.file)) {
      problem('missingPaidListFile', at([...keyPath, 'file']), `names '${entry.file}', which does not exist`);
      continue;
    }
    const result = evaluator.evaluateRef(entry.file, entry);
    for (const file of result.files) files.add(file);
    const [first, ...more] = result.errors;
    if (first !== undefined) {
      const named = (): { file: string; loc: Loc } => at([...keyPath, entry.path === undefined ? 'export' : 'path']);
      if (result.value === null && first.missing === true) problem('missingPaidListExport', named(), `cannot be read: ${first.message}`);
      else problem('unevaluablePaidList', located(first, named), `cannot be evaluated statically: ${first.message}${more.length > 0 ? ` (and ${more.length} more)` : ''}`);
      continue;
    }
    if (result.value === null) {
      problem('malformedPaidList', at(keyPath), 'is empty, not a list of glob strings');
      continue;
    }
    const list = stringList(result.value);
    if ('bad' in list) {
      problem('malformedPaidList', { file: list.bad.file, loc: list.bad.loc }, list.why);
      continue;
    }
    for (const item of list.globs) {
      globs.push(item.v);
      read.push({ glob: item.v, file: item.file, loc: item.loc, ref });
    }
  }
  return { globs, read, problems, files: [...files] };
}

const FIX: Record<PaidListMessageId, string> = {
  missingPaidListFile: 'Point "file" at the file that holds the list of paid globs.',
  missingPaidListExport: 'Name the export (TS/JS) or dot path (JSON/YAML) that holds the list.',
  unevaluablePaidList: 'Write the list as an exported const array of string literals; spreads of other such lists are followed.',
  malformedPaidList: 'Write the list as an array of glob strings.',
};

type StringValue = Extract<Value, { t: 'str' }>;

function stringList(value: Value): { globs: StringValue[] } | { bad: Value; why: string } {
  if (value.t !== 'arr') return { bad: value, why: `is not a list of glob strings (it is ${KIND[value.t]})` };
  const globs: StringValue[] = [];
  for (const item of value.items) {
    if (item.t !== 'str') return { bad: item, why: `is not a list of glob strings (an item is ${KIND[item.t]})` };
    globs.push(item);
  }
  return { globs };
}

const KIND: Record<Value['t'], string> = { str: 'a string', num: 'a number', bool: 'a boolean', null: 'null', arr: 'an array', obj: 'an object', err: 'a value that cannot be evaluated' };

/** An error without a node of its own (the evaluator's file start) is shown at the reference in the configuration. */
function located(error: EvalError, fallback: () => { file: string; loc: Loc }): { file: string; loc: Loc } {
  const { loc } = error;
  const unplaced = loc.line === 1 && loc.column === 1 && loc.endLine === 1 && loc.endColumn === 1;
  return unplaced ? fallback() : { file: error.file, loc };
}

/** Where a key path of the configuration is written: the closest node that exists, else the file's start. */
function configLocator(model: RepoModel): (keyPath: (string | number)[]) => { file: string; loc: Loc } {
  const configFile = model.configFile;
  const text = configFile === null ? null : model.text(configFile);
  const tree = text === null ? undefined : parseTree(text);
  const prefix = configFile !== null && posix.basename(configFile) === 'package.json' ? ['tripwire'] : [];
  const position = text === null ? null : lineIndex(text);
  return (keyPath) => {
    const file = configFile ?? 'tripwire.config.json';
    if (!tree || position === null) return { file, loc: FILE_START };
    for (let length = keyPath.length; length > 0; length--) {
      const node = findNodeAtLocation(tree, [...prefix, ...keyPath.slice(0, length)]);
      if (node) return { file, loc: rangeLoc(position, node.offset, node.offset + node.length) };
    }
    return { file, loc: FILE_START };
  };
}

const PAID = {};

function paidMatcher(model: RepoModel): { list: PaidList; matches: (file: string) => boolean } {
  return model.memo(PAID, () => {
    const list = resolvePaidList(model);
    return { list, matches: compileGlobs(list.globs) };
  });
}

/**
 * `tests.paid` with its references to the repository's own list evaluated,
 * once per run: every rule sees the same paid globs, and a reference that
 * cannot be read is one problem.
 */
export function paidList(model: RepoModel): PaidList {
  return paidMatcher(model).list;
}

export function isPaidTest(model: RepoModel, file: string): boolean {
  return paidMatcher(model).matches(file);
}

export function paidTestFiles(model: RepoModel): string[] {
  const { matches } = paidMatcher(model);
  return model.testFiles().filter((file) => matches(file));
}

export function freeTestFiles(model: RepoModel): string[] {
  const { matches } = paidMatcher(model);
  return model.testFiles().filter((file) => !matches(file));
}
