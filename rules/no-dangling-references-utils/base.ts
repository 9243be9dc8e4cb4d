import { posix } from 'node:path';
import { PAID_ENV } from '../../src/vocab/paid.js';
import { isAmbientEnv, RUNNER_ENV } from '../../src/vocab/env.js';
import type { FileFacts } from '../../src/facts/types.js';
import { defineDerived, definePart, type RepoModel } from '../../src/model/model.js';
import { envUses, hasLexicalEnv, lexicalEnvUses, testAreas } from '../../src/analysis/seams.js';
import { codeIdentifiers, subLoc, textRuns } from '../../src/analysis/text-scan.js';
import { isScriptFile, MODULE_EXTENSION, moduleStem } from '../../src/util/file-kinds.js';
import type { RuleFinding } from '../../src/rule.js';
import { firstPerFile, timesNamed } from '../shared/mentions.js';
import { renameFix } from '../shared/renames.js';
import { cliFlagMentions, cliIdentity, cliSubcommandMentions, type CliIdentity } from './cli-mentions.js';
import { binNames, commandMentions, commandTextFiles, executables, inTestArea, isBinFile } from './commands.js';
import { lexicalFlags, lexicalSubcommands } from './lexical-flags.js';
import { removedTermMentions } from './glossary.js';
import { findMentions, isHistoryFile, scannableFiles } from './mentions.js';
import { pathRefs } from './references.js';

export type BaseMessageId = 'removedFileReference' | 'removedFileMention' | 'removedCommandMention' | 'removedSubcommandMention' | 'removedTermMention' | 'removedExportImport' | 'removedExportMention' | 'removedEnvMention' | 'removedFlagMention';

function exportNames(facts: FileFacts | null): Set<string> {
  const names = new Set<string>();
  for (const fact of facts?.exports ?? []) {
    if (fact.kind === 'local' || fact.kind === 'reexport') names.add(fact.name);
  }
  names.delete('default');
  return names;
}

// The names a script exports now, as a part of its facts: a staged edit to a helper that removes no export leaves
// what the diff removed the same, and the rule's verdict holds (the diff itself is the same while the same paths change).
const EXPORT_NAMES = definePart('export-names', (facts) => [...exportNames(facts)]);
// So are the flags a script declares, and the subcommands a file declares (read from its text).
const FLAG_NAMES = definePart('flag-names', (facts) => facts.flags.map((flag) => flag.name));
const SUBCOMMANDS = defineDerived<null, string[]>('subcommands', (text, file) => [...lexicalSubcommands(file, text, isScriptFile(file))], () => '');

function envReads(path: string, facts: FileFacts | null, text: string | null): Map<string, number> {
  const reads = new Map<string, number>();
  if (facts) {
    const written = new Set(facts.envWrites.map((write) => `${write.loc.line}:${write.loc.column}`));
    for (const unit of facts.units) {
      for (const site of unit.sites) {
        if (site.kind === 'env' && !written.has(`${site.loc.line}:${site.loc.column}`) && !reads.has(site.name)) reads.set(site.name, site.loc.line);
      }
    }
    return reads;
  }
  if (text === null || !hasLexicalEnv(path)) return reads;
  for (const use of lexicalEnvUses(path, text)) if (use.op === 'read' && !reads.has(use.name)) reads.set(use.name, use.loc.line);
  return reads;
}

/**
 * With `--base`: what the diff removed (files, exports, the last read of an
 * env var, CLI flags of a literal option list) that the tree still names.
 * Each finding is at the surviving reference.
 */
export function baseFindings(model: RepoModel): RuleFinding<BaseMessageId>[] {
  const diff = model.diff;
  if (!diff) return [];
  const since = `the diff since ${diff.base.slice(0, 12)}`;
  const findings: RuleFinding<BaseMessageId>[] = [];
  const skip = (file: string): boolean => file === model.configFile || isHistoryFile(file);
  const scripts = model.files.filter((file) => isScriptFile(file));

  // Files deleted or renamed.
  const gone = new Map<string, string | null>();
  for (const change of diff.changes) {
    if (change.status === 'deleted' && !model.fileSet.has(change.path)) gone.set(change.path, null);
    if (change.status === 'renamed' && change.oldPath !== undefined && !model.fileSet.has(change.oldPath)) gone.set(change.oldPath, change.path);
  }
  const goneStems = new Map([...gone.keys()].filter((path) => MODULE_EXTENSION.test(path)).map((path) => [moduleStem(path), path]));
  const currentBasenames = new Set(model.files.map((file) => posix.basename(file)));
  const goneBasenames = new Map<string, string>();
  for (const path of gone.keys()) {
    const base = posix.basename(path);
    if (base.includes('.') && !currentBasenames.has(base)) goneBasenames.set(base, path);
  }
  const pathMessage = (written: string, old: string): string => {
    const renamed = gone.get(old);
    const what = written === old ? written : `${written} (${old})`;
    return renamed ? `names ${what}, which ${since} renamed to ${renamed}: update the reference.` : `names ${what}, which ${since} deleted: update or remove the reference.`;
  };
  const reported = new Map<string, { line: number; start: number; end: number }[]>();
  if (gone.size > 0) {
    for (const file of scannableFiles(model)) {
      if (skip(file)) continue;
      for (const ref of pathRefs(model, file)) {
        if (ref.illustrative) continue;
        let old = ref.candidates.find((candidate) => gone.has(candidate));
        if (old === undefined && ref.where === 'import' && !ref.candidates.some((candidate) => model.fileSet.has(candidate))) {
          old = ref.candidates.map((candidate) => goneStems.get(moduleStem(candidate))).find((path) => path !== undefined);
          if (old !== undefined && model.resolve(file, ref.written).kind === 'file') old = undefined;
        }
        if (old === undefined) continue;
        // A string literal that is the old path itself has one mechanical fix; an import specifier or a prose mention is rewritten by hand.
        const fix = ref.where === 'string' && ref.written === old ? renameFix(model, file, ref.loc, old) : {};
        findings.push({ messageId: 'removedFileReference', file, loc: ref.loc, message: pathMessage(ref.written, old), ...fix });
        reported.set(file, [...(reported.get(file) ?? []), { line: ref.loc.line, start: ref.loc.column, end: ref.loc.endColumn }]);
      }
    }
    const uncovered = findMentions(model, [...goneBasenames.keys()], (file) => skip(file)).filter(
      (mention) => !(reported.get(mention.file) ?? []).some((range) => range.line === mention.loc.line && range.start <= mention.loc.column && mention.loc.endColumn <= range.end),
    );
    for (const { first: mention, count } of firstPerFile(uncovered, (m) => m.token)) {
      const old = goneBasenames.get(mention.token);
      if (old !== undefined) findings.push({ messageId: 'removedFileMention', file: mention.file, loc: mention.loc, message: `${pathMessage(mention.token, old)}${timesNamed(count)}` });
    }
  }

  // Executables deleted (a bin/ file, a package.json bin name) that docs and skills still run as a command.
  const goneCommands = new Map<string, string>();
  // The test areas only when a bin file went: they take a walk of every path.
  for (const path of gone.keys()) if (isBinFile(path) && !inTestArea(testAreas(model), path)) goneCommands.set(posix.basename(path), path);
  for (const change of diff.changes) {
    if (change.status === 'added' || posix.basename(change.path) !== 'package.json') continue;
    const now = new Set(change.status === 'deleted' ? [] : binNames(model.text(change.path)));
    for (const name of binNames(model.oldText(change.oldPath ?? change.path))) if (!now.has(name)) goneCommands.set(name, `the bin ${name} of ${change.oldPath ?? change.path}`);
  }
  if (goneCommands.size > 0) {
    for (const name of executables(model)) goneCommands.delete(name);
    const mentions = commandTextFiles(model).flatMap((file) => (skip(file) ? [] : commandMentions(model, file, (word) => goneCommands.has(word))));
    for (const { first: mention, count } of firstPerFile(mentions, (m) => m.token)) {
      const old = goneCommands.get(mention.token) ?? mention.token;
      findings.push({ messageId: 'removedCommandMention', file: mention.file, loc: mention.loc, message: `runs ${mention.token}, which ${since} deleted (${old}): the command no longer exists. Update or remove the instruction.${timesNamed(count)}` });
    }
  }

  // Subcommands a CLI that still exists no longer declares, still run on its command line.
  const goneSubcommands = new Map<string, string[]>();
  for (const change of diff.changes) {
    if (change.status !== 'modified' && change.status !== 'renamed') continue;
    const oldPath = change.oldPath ?? change.path;
    const js = isScriptFile(oldPath);
    const before = lexicalSubcommands(oldPath, model.oldText(oldPath) ?? '', js);
    if (before.size === 0) continue;
    const after = new Set(SUBCOMMANDS(model, null)(change.path));
    for (const name of before) if (!after.has(name)) goneSubcommands.set(name, [...(goneSubcommands.get(name) ?? []), change.path]);
  }
  if (goneSubcommands.size > 0) {
    const subcommandOwner = (word: string): CliIdentity => cliIdentity(model, goneSubcommands.get(word) ?? []);
    const running = cliSubcommandMentions(model, findMentions(model, [...goneSubcommands.keys()], (file) => skip(file)), subcommandOwner);
    for (const { first: mention, count } of firstPerFile(running, (m) => m.token)) {
      findings.push({ messageId: 'removedSubcommandMention', file: mention.file, loc: mention.loc, message: `runs the subcommand ${mention.token}, which ${since} removed from ${(goneSubcommands.get(mention.token) ?? []).join(', ')}: the CLI rejects it now. Update or remove the instruction.${timesNamed(count)}` });
    }
  }

  // Terms whose definition the diff removed from a glossary, still used as terms elsewhere.
  const terms = removedTermMentions(model)
    .filter(({ mention }) => !skip(mention.file))
    .map(({ mention, glossary }) => ({ ...mention, glossary }));
  for (const { first: mention, count } of firstPerFile(terms, (item) => item.token)) {
    const { glossary } = mention;
    findings.push({ messageId: 'removedTermMention', file: mention.file, loc: mention.loc, message: `uses '${mention.token}', a term whose definition ${since} removed from ${glossary}, and no glossary defines it now: define it again, or use the term that replaced it.${timesNamed(count)}` });
  }

  // Exports removed from a file that still exists.
  const removedExports = new Map<string, string[]>();
  for (const change of diff.changes) {
    if ((change.status !== 'modified' && change.status !== 'renamed') || !isScriptFile(change.path)) continue;
    const now = EXPORT_NAMES(model, change.path);
    // A file that cannot be read now (too large, unreadable: its own finding) exports what it exports; nothing is known removed.
    if (now === null) continue;
    const before = exportNames(model.oldFacts(change.oldPath ?? change.path));
    const after = new Set(now);
    const removed = [...before].filter((name) => !after.has(name));
    if (removed.length > 0) removedExports.set(change.path, removed);
  }
  if (removedExports.size > 0) {
    const exported = new Set(scripts.flatMap((file) => EXPORT_NAMES(model, file) ?? []));
    const orphaned = new Map<string, string>();
    for (const script of scripts) {
      for (const fact of model.facts(script)?.imports ?? []) {
        const target = model.resolve(script, fact.specifier);
        if (target.kind !== 'file') continue;
        const removed = removedExports.get(target.path);
        for (const binding of fact.bindings) {
          if (removed?.includes(binding.imported)) findings.push({ messageId: 'removedExportImport', file: script, loc: fact.loc, message: `imports ${binding.imported} from ${fact.specifier}, which ${since} removed from ${target.path}: update the import.` });
        }
      }
    }
    for (const [file, names] of removedExports) for (const name of names) if (!exported.has(name)) orphaned.set(name, file);
    for (const file of model.files) {
      if (skip(file) || isScriptFile(file)) continue;
      for (const run of textRuns(model, file) ?? []) {
        if (run.where !== 'code' && run.where !== 'fence') continue;
        for (const { word, index } of codeIdentifiers(run.text)) {
          const from = orphaned.get(word);
          if (from !== undefined) findings.push({ messageId: 'removedExportMention', file, loc: subLoc(run.loc, index, word.length), message: `names ${word}, which ${since} removed from ${from}; nothing exports it now. Update or remove the reference.` });
        }
      }
    }
  }

  // Env vars whose last read the diff removed, and flags it removed from an option list.
  const oldReads = new Map<string, string>();
  const oldFlags = new Map<string, string[]>();
  for (const change of diff.changes) {
    if (change.status === 'added') continue;
    const path = change.oldPath ?? change.path;
    const facts = isScriptFile(path) ? model.oldFacts(path) : null;
    const oldText = facts ? null : model.oldText(path);
    for (const [name, line] of envReads(path, facts, oldText)) if (!oldReads.has(name)) oldReads.set(name, `${path}:${line}`);
    // A CLI the diff deleted is reported as a deleted file or command, not once more per flag.
    for (const flag of change.status === 'deleted' ? [] : (facts?.flags ?? (oldText === null ? [] : lexicalFlags(path, oldText)))) {
      const owners = oldFlags.get(flag.name) ?? [];
      if (flag.name.startsWith('--') && !owners.includes(path)) oldFlags.set(flag.name, [...owners, path]);
    }
  }
  if (oldReads.size > 0) {
    const ignored = new Set([...PAID_ENV, ...model.config.paid.env, ...RUNNER_ENV]);
    const current = new Set(model.files.flatMap((file) => envUses(model, file).filter((use) => use.op === 'read').map((use) => use.name)));
    const goneEnv = [...oldReads.keys()].filter((name) => !current.has(name) && !ignored.has(name) && !isAmbientEnv(name));
    for (const { first: mention, count } of firstPerFile(findMentions(model, goneEnv, (file) => skip(file)), (m) => m.token)) {
      findings.push({ messageId: 'removedEnvMention', file: mention.file, loc: mention.loc, message: `names ${mention.token}, which nothing reads any more: ${since} removed its last read (${oldReads.get(mention.token) ?? ''} at the base). Remove this leftover.${timesNamed(count)}` });
    }
  }
  if (oldFlags.size > 0) {
    const current = new Set(scripts.flatMap((file) => FLAG_NAMES(model, file) ?? []));
    // Shell and Python CLIs declare theirs in text (argparse, click, a `case` on the arguments).
    for (const file of model.files) {
      if (isScriptFile(file) || !hasLexicalEnv(file)) continue;
      const text = model.text(file);
      for (const flag of text === null ? [] : lexicalFlags(file, text)) current.add(flag.name);
    }
    const goneFlags = [...oldFlags.keys()].filter((flag) => !current.has(flag));
    // A flag is a reference to the CLI's flag only on its command line or in prose about it, never on another program's command line.
    const identities = new Map<string, CliIdentity>();
    const owner = (flag: string): CliIdentity => {
      const declaring = oldFlags.get(flag) ?? [];
      const key = declaring.join('\0');
      let identity = identities.get(key);
      if (!identity) {
        identity = cliIdentity(model, declaring);
        identities.set(key, identity);
      }
      return identity;
    };
    const references = cliFlagMentions(model, findMentions(model, goneFlags, (file) => skip(file)), owner);
    for (const { first: mention, count } of firstPerFile(references, (m) => m.token)) {
      findings.push({ messageId: 'removedFlagMention', file: mention.file, loc: mention.loc, message: `names ${mention.token}, which ${since} removed from the option list in ${(oldFlags.get(mention.token) ?? []).join(', ')}: the CLI rejects it now. Update or remove the reference.${timesNamed(count)}` });
    }
  }
  return findings;
}
