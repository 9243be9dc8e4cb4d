import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { RepoModel } from '../model/model.js';
import { lineIndex, rangeLoc } from '../model/positions.js';
import { excludesDirectory, globTooComplex, reachesInto } from '../util/glob.js';
import type { MessageKind } from '../rule.js';
import type { Finding, Loc, Severity } from '../types.js';
import { selectionOf } from '../analysis/selection.js';
import { paidList } from '../analysis/paid-list.js';

/** Findings tripwire raises about its own inputs rather than a contract, each with its message ids. */
export const CORE_RULES = {
  'parse-error': {
    description: 'A file tripwire needs could not be parsed; nothing it contains was checked.',
    messages: { parseError: { description: 'The file could not be parsed; the position of the syntax error is given.' } },
  },
  'read-error': {
    description: 'A file tripwire needs could not be read; nothing it contains was checked.',
    messages: {
      readError: { description: 'The file could not be read.' },
      notText: { description: 'A shipped or test file of no text format holds mostly binary content (NUL, control or invalid UTF-8 bytes), so it was not scanned.' },
      fileTooLarge: { description: 'The file is larger than limits.maxFileBytes (default 2 MiB), so it was not read or parsed.' },
    },
  },
  'unfollowed-symlink': {
    description: 'A file tripwire needs is a symbolic link that points outside the repository, to nothing, or round a loop; tripwire does not follow it, so nothing it points to was checked.',
    messages: { unfollowedSymlink: { description: 'The link points outside the repository, to nothing, or round a loop back to itself, and was not followed.' } },
  },
  'unchecked-submodule': {
    description: 'A configured glob reaches into a git submodule, whose files tripwire does not list: nothing in it was checked.',
    messages: { uncheckedSubmodule: { description: 'A submodule (gitlink) lies where tests.include, tests.paid or shipped.include reaches; its files were not checked.' } },
  },
  'glob-too-complex': {
    description: 'A glob has more wildcards than tripwire matches in bounded time; it is refused, and matches nothing until it is simplified.',
    messages: {
      globTooComplex: { description: 'A glob of the configuration or of a map has more than 3 unbounded wildcards in one path segment once runs such as `?*?*` are collapsed (or more than 3 in all when a brace holds a `/`).' },
    },
  },
  'unmatched-glob': {
    description: 'A glob in the configuration matches no file, so the check it feeds sees nothing.',
    messages: { unmatchedGlob: { description: 'A glob of tests.include, tests.paid (or of a list it references) or shipped.include matches no file.' } },
  },
  'unresolved-paid-list': {
    description: "A reference in tests.paid to the repository's own list of paid globs cannot be read statically; until it is fixed it marks no test paid, so the tests it lists are checked as free.",
    messages: {
      missingPaidListFile: { description: 'The file a tests.paid reference names does not exist.' },
      missingPaidListExport: { description: 'The export (TS/JS) or dot path (JSON/YAML) a tests.paid reference names does not exist.' },
      unevaluablePaidList: { description: 'The referenced list cannot be evaluated statically (a call, a mutable binding, a name it cannot follow): the node is named.' },
      malformedPaidList: { description: 'The referenced value is not a list of string literals.' },
    },
  },
  'baseline-growth': {
    description: 'With --base: the change adds an entry to the baseline (or raises its count). A change cannot accept its own finding: the added entry suppresses nothing, and the baseline only shrinks in a change.',
    messages: { baselineEntryAdded: { description: 'A baseline entry that the baseline at the merge base did not hold; reported at the entry, and the finding it would hide is reported too.' } },
  },
  'invalid-suppression': {
    description: 'A tripwire-disable comment without a reason, or naming an unknown rule.',
    messages: {
      unknownRule: { description: 'A tripwire-disable comment names a rule tripwire does not know.' },
      suppressionWithoutReason: { description: 'A tripwire-disable comment has no ` -- <reason>`, so it suppresses nothing.' },
    },
  },
} as const satisfies Record<string, { description: string; messages: Record<string, MessageKind> }>;

/** A reason-less tripwire-disable is reported under the rule it names too: every rule surface can report this id. */
export const SUPPRESSION_WITHOUT_REASON = 'suppressionWithoutReason';

export function toFinding(ruleId: string, messageId: string, severity: Severity, file: string, loc: Loc, message: string, related?: Finding['related']): Finding {
  const finding: Finding = { ruleId, messageId, severity, file, line: loc.line, column: loc.column, endLine: loc.endLine, endColumn: loc.endColumn, message };
  if (related && related.length > 0) finding.related = related;
  return finding;
}

/** Each configured file glob must match something: a dead glob silently disables the check it feeds. */
export function unmatchedGlobs(model: RepoModel, configPath: string | null): Finding[] {
  if (configPath === null || model.configFile === null) return [];
  const text = readFileSync(configPath, 'utf8');
  const tree = parseTree(text);
  if (!tree) return [];
  const prefix = basename(configPath) === 'package.json' ? ['tripwire'] : [];
  const position = lineIndex(text);
  const findings: Finding[] = [];
  const keys: [string, string][] = [['tests', 'include'], ['tests', 'paid'], ['shipped', 'include']];
  for (const keyPath of keys) {
    const node = findNodeAtLocation(tree, [...prefix, ...keyPath]);
    for (const [index, element] of (node?.children ?? []).entries()) {
      const pattern = element.value;
      if (typeof pattern !== 'string' || pattern.startsWith('!') || globTooComplex(pattern) !== null) continue;
      if (model.matching([pattern]).length > 0) continue;
      findings.push(toFinding('unmatched-glob', 'unmatchedGlob', 'error', model.configFile, rangeLoc(position, element.offset, element.offset + element.length), `${keyPath.join('.')}[${index}] '${pattern}' matches no file`));
    }
  }
  for (const { glob, file, loc, ref } of paidList(model).read) {
    if (glob.startsWith('!') || globTooComplex(glob) !== null || model.matching([glob]).length > 0) continue;
    findings.push(toFinding('unmatched-glob', 'unmatchedGlob', 'error', file, loc, `'${glob}' of ${ref} matches no file`));
  }
  return findings;
}

/** Where the configuration holds globs: key paths, `*` for every index of a list. */
const CONFIG_GLOBS: readonly (readonly string[])[] = [
  ['tests', 'include', '*'],
  ['tests', 'paid', '*'],
  ['tests', 'dynamicIds', '*', 'file'],
  ['maps', 'generated', '*'],
  ['shipped', 'include', '*'],
  ['shipped', 'exclude', '*'],
  ['shipped', 'illustrative', '*'],
  ['shipped', 'allow', '*', 'files', '*'],
  ['removed', '*', 'allow', '*'],
  ['ignore', '*'],
];

/**
 * A glob with more wildcards than can be matched in bounded time is refused
 * (it matches nothing): one finding at each place it is written, in the
 * configuration, a map, the global list or the repository's list of paid globs.
 */
export function complexGlobs(model: RepoModel, configPath: string | null): Finding[] {
  const findings: Finding[] = [];
  const report = (glob: string, file: string, loc: Loc, where: string): void => {
    const reason = globTooComplex(glob);
    if (reason !== null) findings.push(toFinding('glob-too-complex', 'globTooComplex', 'error', file, loc, `${where} '${glob}' is too complex to match: ${reason}. It matches nothing until it is simplified.`));
  };
  if (configPath !== null && model.configFile !== null) {
    const text = readFileSync(configPath, 'utf8');
    const tree = parseTree(text);
    const position = lineIndex(text);
    const prefix = basename(configPath) === 'package.json' ? ['tripwire'] : [];
    const walk = (node: JsonNode | undefined, rest: readonly string[], path: string): void => {
      if (!node) return;
      const [head, ...tail] = rest;
      if (head === undefined) {
        if (typeof node.value === 'string') report(node.value, model.configFile ?? '', rangeLoc(position, node.offset, node.offset + node.length), path);
        return;
      }
      if (head !== '*') return walk(findNodeAtLocation(node, [head]), tail, path === '' ? head : `${path}.${head}`);
      if (node.type === 'array') for (const [index, child] of (node.children ?? []).entries()) walk(child, tail, `${path}[${index}]`);
    };
    for (const keyPath of CONFIG_GLOBS) walk(tree && findNodeAtLocation(tree, prefix), keyPath, '');
  }
  for (const { glob, file, loc, ref } of paidList(model).read) report(glob, file, loc, `a glob of ${ref}`);
  if (model.config.maps) {
    const { selection } = selectionOf(model);
    for (const entry of selection.touchfiles) for (const glob of entry.globs) report(glob.value, glob.file, glob.loc, `the touchfile glob of '${entry.key.value}'`);
    for (const glob of selection.globals ?? []) report(glob.value, glob.file, glob.loc, 'the global touchfile glob');
  }
  return findings;
}

/**
 * A submodule's files are in another repository: git lists the gitlink, not
 * them. Where a configured glob reaches into one, its tests or shipped files
 * would be checked if they were here, so leaving them out is said, once per
 * submodule. A submodule excluded by `ignore` or by a glob's own negation is not.
 */
export function uncheckedSubmodules(model: RepoModel): Finding[] {
  const { tests, shipped, ignore } = model.config;
  const lists: [string, readonly string[]][] = [
    ['tests.include', tests.include],
    ['tests.paid', paidList(model).globs],
    ['shipped.include', shipped.include],
  ];
  const findings: Finding[] = [];
  for (const gitlink of model.gitlinks) {
    if (ignore.some((pattern) => excludesDirectory(pattern, gitlink))) continue;
    for (const [key, patterns] of lists) {
      if (patterns.some((pattern) => pattern.startsWith('!') && excludesDirectory(pattern.slice(1), gitlink))) continue;
      const glob = patterns.find((pattern) => !pattern.startsWith('!') && reachesInto(pattern, gitlink));
      if (glob === undefined) continue;
      findings.push(
        toFinding('unchecked-submodule', 'uncheckedSubmodule', 'error', gitlink, { line: 1, column: 1, endLine: 1, endColumn: 1 }, `submodule not checked: ${gitlink} is a git submodule, and ${key} '${glob}' reaches into it, but tripwire lists no file of another repository, so nothing in it was checked. Check it in its own repository, or leave it out with ignore`),
      );
      break;
    }
  }
  return findings;
}
