import * as z from 'zod';
import { TestClosure } from '../src/analysis/closure.js';
import type { RepoModel } from '../src/model/model.js';
import { FILE_START } from '../src/model/positions.js';
import { mapLabel, touchfileRefs, selectionOf } from '../src/analysis/selection.js';
import type { Located, PaidTestId, TouchfileEntry } from '../src/analysis/selection-types.js';
import { compileGlobs, globTooComplex } from '../src/util/glob.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import type { Fix } from '../src/types.js';
import { MAP_MESSAGES, mapProblems, missingMapFinding } from './shared/map-findings.js';
import { insertProperty, propertyAt, removeProperty } from '../src/analysis/literal-edits.js';
import { mapLiteral, oneEditFix } from './shared/map-fixes.js';
import { deadGlob } from './shared/dead-glob.js';

const messages = {
  ...MAP_MESSAGES,
  missingTouchfileEntry: { description: 'A paid test id declared by a test file has no touchfile entry, so no diff can select it.' },
  orphanKey: { description: 'A touchfile key names no paid test that any paid test file declares or registers.' },
  deadGlob: { description: 'A touchfile glob matches no tracked file (and no declared generated path).' },
  ownFileUncovered: { description: "The touchfiles of a paid test do not cover the test's own file." },
  importUncovered: { description: 'A local module a paid test imports, transitively, is covered neither by its touchfiles nor by a global.' },
  malformedTouchfileMap: { description: 'The touchfile map is not an object of test id → globs.' },
  malformedTouchfileEntry: { description: 'A touchfile entry is not a list of glob strings.' },
  missingIdArgument: { description: 'A call configured in tests.ids lacks the argument that holds the test id.' },
  unevaluableId: { description: 'A test id cannot be evaluated statically; reported once at its node. Declare intentionally dynamic ids in tests.dynamicIds.' },
  missingIdProperty: { description: "The id argument has no property configured in tests.ids' `property`." },
  nonStringId: { description: 'A test id evaluates to something other than a string.' },
  noTestId: { description: 'A paid test file declares no test id and no touchfile entry names it.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

const fixes = {
  addTouchfileEntry: "Add the missing id to the touchfile map, with the test's own file and the local modules it imports (those no global covers) as its globs.",
  removeOrphanKey: 'Remove the touchfile entry whose key names no paid test.',
  replaceRenamedPath: 'With --base: replace a glob that names a file the diff renamed by its new path.',
};

export default createRule({
  id: 'touchfiles-cover-paid-tests',
  meta: {
    description: 'Every paid test id has a touchfile entry that covers its file and every local module it imports; no orphan keys, no dead globs.',
    languages: ['js/js', 'json/json'],
    recommended: true,
    messages,
    fixes,
  },
  options: z.strictObject({
    closure: z.boolean().default(true).describe('Require every local module a paid test imports, transitively, to be covered by its globs or a global.'),
  }),
  check(model, options, units) {
    const { selection, problems } = selectionOf(model);
    const findings: RuleFinding<MessageIds>[] = mapProblems(problems, 'touchfiles', { unevaluable: 'unevaluableMap', missingFile: 'missingMapFile', notAnObject: 'malformedTouchfileMap', notAGlobList: 'malformedTouchfileEntry' });
    const idProblems: RuleFinding<MessageIds>[] = mapProblems(problems, 'ids', { missingArgument: 'missingIdArgument', unevaluable: 'unevaluableId', missingProperty: 'missingIdProperty', notAString: 'nonStringId', noTestId: 'noTestId' });
    findings.push(...idProblems);
    if (selection.touchfiles.length === 0 && !model.config.maps?.touchfiles) {
      return [...findings, ...missingMapFinding(model, 'maps.touchfiles', 'touchfile map')];
    }

    const entriesByKey = new Map<string, TouchfileEntry[]>();
    for (const entry of selection.touchfiles) {
      const list = entriesByKey.get(entry.key.value);
      if (list) list.push(entry);
      else entriesByKey.set(entry.key.value, [entry]);
    }
    const declared = new Set(selection.paidIds.map((paid) => paid.id));
    const globals = compileGlobs((selection.globals ?? []).map((g) => g.value));
    const closure = new TestClosure(model);

    // With a map that could not be read (reported once), an id missing from the others may be in it.
    for (const paid of selection.touchfilesComplete === false ? [] : selection.paidIds) {
      if (paid.via !== 'call' || entriesByKey.has(paid.id)) continue;
      findings.push({
        messageId: 'missingTouchfileEntry',
        file: paid.file,
        loc: paid.loc,
        message: `paid test id '${paid.id}' has no touchfile entry: no diff can ever select it. Add '${paid.id}' to ${mapNames(model)}.`,
        // An id declared in several files: whose globs it takes is a judgement.
        ...(declaringFiles(selection.paidIds, paid.id) === 1 ? addEntryFix(model, paid.id, () => [paid.file, ...[...closure.of(paid.file).keys()].filter((module) => !globals(module)).sort()]) : {}),
      });
    }

    for (const entry of selection.touchfiles) {
      if (!declared.has(entry.key.value)) {
        findings.push({
          messageId: 'orphanKey',
          file: entry.key.file,
          loc: entry.key.loc,
          message: `touchfile key '${entry.key.value}' in ${entry.map} names no paid test: no paid test file declares or registers it. Remove the entry or fix the id.`,
          ...removeEntryFix(model, entry),
        });
      }
    }
    const unitFindings = unitsOf(model, closure);
    // One unit for every glob: whether one matches a file is a question about the listing, asked again only in another.
    const globs = selection.touchfiles.flatMap((entry) => entry.globs);
    // Computed from the globs at hand: at 10k their JSON is megabytes, not parsed back here.
    findings.push(...units.of(DEAD_GLOBS, () => deadGlobs(model, globs), JSON.stringify(globs)));

    // Globals that could not be read (reported once, by global-touchfiles-present) may cover any module: no coverage claim rests on them.
    if (selection.globalsComplete === false) return findings;

    // Coverage: the test's own file and every local module whose code it reaches.
    const byFile = new Map<string, CoveredId[]>();
    // By file and id: a file declaring thousands of ids (a loop over a table) made a search per id quadratic.
    const listed = new Set<string>();
    for (const paid of selection.paidIds) {
      const entries = entriesByKey.get(paid.id);
      // An entry that could not be evaluated, or with a glob too complex to match, was reported; its coverage is unknown, not missing.
      if (!entries || entries.some((entry) => entry.unevaluated || entry.globs.some((glob) => globTooComplex(glob.value) !== null))) continue;
      const patterns = entries.flatMap((entry) => entry.globs.map((g) => g.value));
      const list = byFile.get(paid.file) ?? [];
      if (!listed.has(`${paid.file}\0${paid.id}`)) list.push({ id: paid.id, loc: paid.loc, patterns });
      listed.add(`${paid.file}\0${paid.id}`);
      byFile.set(paid.file, list);
    }
    // A unit per paid test file: its own file, the files its imports reach, under its ids' globs and the globals.
    const globalPatterns = JSON.stringify([(selection.globals ?? []).map((g) => g.value), options.closure]);
    for (const [file, ids] of byFile) {
      const context = `${globalPatterns}\n${JSON.stringify(ids.map(({ id, loc, patterns }) => [id, loc, patterns]))}`;
      findings.push(...units.of(file, () => unitFindings(file, context), context));
    }
    return findings;
  },
  // Each unit is computed from its context alone (unitsOf): a run in which only some tests' imports changed computes those.
  resume: (model) => unitsOf(model, new TestClosure(model)),
});

/** The key of the unit that checks every glob of the maps. */
const DEAD_GLOBS = '\0dead globs';

function deadGlobs(model: RepoModel, globs: readonly Located<string>[]): RuleFinding<MessageIds>[] {
  return globs.flatMap((glob) => deadGlob(model, glob) ?? []);
}

/**
 * One unit's findings from its key and its context alone: the dead globs
 * (the context lists them), or the coverage of one paid test file (the
 * context holds the globals, the closure option, and its ids with their globs).
 */
function unitsOf(model: RepoModel, closure: TestClosure): (unit: string, context: string | undefined) => RuleFinding<MessageIds>[] {
  return (unit, context = '') => {
    if (unit === DEAD_GLOBS) return deadGlobs(model, JSON.parse(context) as Located<string>[]);
    const newline = context.indexOf('\n');
    const [globals, withClosure] = JSON.parse(context.slice(0, newline)) as [string[], boolean];
    const ids = (JSON.parse(context.slice(newline + 1)) as [string, Located<string>['loc'], string[]][]).map(([id, loc, patterns]) => ({ id, loc, patterns }));
    return coverage(model, unit, ids, compileGlobs(globals), withClosure, closure);
  };
}

interface CoveredId {
  id: string;
  loc: Located<string>['loc'];
  /** The globs of its touchfile entries. */
  patterns: string[];
}

/** The coverage findings of one paid test file: its own file, and (with `closure`) every local module its code reaches. */
function coverage(model: RepoModel, file: string, covered: readonly CoveredId[], globals: (path: string) => boolean, withClosure: boolean, closure: TestClosure): RuleFinding<MessageIds>[] {
  const findings: RuleFinding<MessageIds>[] = [];
  const ids = covered.map((id) => ({ ...id, globs: compileGlobs(id.patterns) }));
  for (const id of ids) {
    if (!id.globs(file) && !globals(file)) {
      findings.push({ messageId: 'ownFileUncovered', file, loc: id.loc, message: `the touchfiles of '${id.id}' do not cover its own test file ${file}: editing the test would not re-run it` });
    }
  }
  if (!withClosure) return findings;
  for (const [module, chain] of closure.of(file)) {
    if (globals(module)) continue;
    const uncovered = ids.filter((id) => !id.globs(module));
    if (uncovered.length === 0) continue;
    const importLoc = firstImportLoc(model, file, chain[1] ?? module);
    findings.push({
      messageId: 'importUncovered',
      file,
      loc: importLoc,
      message: `${module} is imported by this paid test (${chain.join(' → ')}) but not covered by the touchfiles of ${uncovered.map((id) => `'${id.id}'`).join(', ')} or by a global: a change to it would not re-run the test`,
    });
  }
  return findings;
}

function declaringFiles(paidIds: readonly PaidTestId[], id: string): number {
  return new Set(paidIds.filter((paid) => paid.id === id && paid.via === 'call').map((paid) => paid.file)).size;
}

/** Only with one touchfile map: which of several a new id belongs to is a judgement. */
function addEntryFix(model: RepoModel, id: string, globsOf: () => string[]): { fix?: Fix } {
  const refs = touchfileRefs(model.config);
  const [ref] = refs;
  const found = ref && refs.length === 1 ? mapLiteral(model, ref) : null;
  if (!ref || !found) return {};
  const globs = globsOf();
  return oneEditFix('addTouchfileEntry', `add '${id}' to ${mapLabel(ref)} with ${globs.length} glob${globs.length === 1 ? '' : 's'}: ${globs.join(', ')}`, ref.file, insertProperty(found, id, globs));
}

/** Only where the key is written in the map's own literal: a key spread in from another map may serve others. */
function removeEntryFix(model: RepoModel, entry: TouchfileEntry): { fix?: Fix } {
  const ref = touchfileRefs(model.config).find((r) => mapLabel(r) === entry.map);
  const found = ref && ref.file === entry.key.file ? mapLiteral(model, ref) : null;
  const property = found ? propertyAt(found, entry.key.loc) : null;
  if (!ref || !found || !property) return {};
  return oneEditFix('removeOrphanKey', `remove the entry '${entry.key.value}' from ${entry.map}`, ref.file, removeProperty(found, property));
}

function mapNames(model: RepoModel): string {
  return touchfileRefs(model.config).map((ref) => ref.export ?? ref.file).join(' or ') || 'the touchfile map';
}

function firstImportLoc(model: RepoModel, file: string, next: string): Located<string>['loc'] {
  for (const fact of model.facts(file)?.imports ?? []) {
    const target = model.resolve(file, fact.specifier);
    if (target.kind === 'file' && target.path === next) return fact.loc;
  }
  return FILE_START;
}
