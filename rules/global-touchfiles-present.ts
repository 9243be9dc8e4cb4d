import * as z from 'zod';
import { FILE_START } from '../src/model/positions.js';
import { mapKey, mapLabel, touchfileRefs, selectionOf } from '../src/analysis/selection.js';
import { compileGlobs } from '../src/util/glob.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import { deadGlob } from './shared/dead-glob.js';
import { MAP_MESSAGES, mapProblems, missingMapFinding } from './shared/map-findings.js';
import { appendString } from '../src/analysis/literal-edits.js';
import { mapLiteral, oneEditFix } from './shared/map-fixes.js';

const messages = {
  ...MAP_MESSAGES,
  emptyGlobals: { description: 'The global touchfile list is empty.' },
  mapFileNotGlobal: { description: 'The global list does not name a selection map file (requireMapFile).' },
  requiredFileNotGlobal: { description: 'The global list does not name a file that maps.globals.require lists.' },
  requiredFileMissing: { description: 'maps.globals.require names a file that does not exist.' },
  deadGlob: { description: 'A global touchfile glob matches no tracked file (and no declared generated path).' },
  malformedGlobals: { description: 'The global touchfile list is not a list of glob strings.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

const fixes = {
  addGlobal: 'Append the missing map file (or required file) to the global touchfile list.',
  replaceRenamedPath: 'With --base: replace a global that names a file the diff renamed by its new path.',
};

export default createRule({
  id: 'global-touchfiles-present',
  meta: {
    description: 'The global touchfile list exists, is non-empty, names the selection map itself and every required file, and each entry matches a file.',
    languages: ['js/js', 'json/json'],
    recommended: true,
    messages,
    fixes,
  },
  options: z
    .strictObject({
      requireMapFile: z.boolean().default(true).describe('Require the globals to name the map file(s); turn off only when the harness diffs old and new maps instead.'),
      reason: z.string().min(1).optional().describe('Why requireMapFile is off; required when it is.'),
    })
    .refine((options) => options.requireMapFile || options.reason !== undefined, { message: 'requireMapFile: false needs a "reason"', path: ['reason'] }),
  check(model, options) {
    const { selection, problems, mapFiles, globalsAt } = selectionOf(model);
    const findings: RuleFinding<MessageIds>[] = mapProblems(problems, 'globals', { unevaluable: 'unevaluableMap', missingFile: 'missingMapFile', notAGlobList: 'malformedGlobals' });
    const globalsRef = model.config.maps?.globals;
    if (!globalsRef) return [...findings, ...missingMapFinding(model, 'maps.globals', 'global touchfile list')];
    const globals = selection.globals;
    if (globals === null || globalsAt === null) return findings;
    const label = mapLabel(globalsRef);
    // An item that could not be evaluated (reported once, at its node) may be any file: the list is not known to be empty or to miss one.
    const complete = selection.globalsComplete !== false;
    if (complete && globals.length === 0) {
      return [...findings, { messageId: 'emptyGlobals', file: globalsAt.file, loc: globalsAt.loc, message: `${label} is empty: a change to the runner, the store or the map itself would select nothing` }];
    }
    const matches = compileGlobs(globals.map((g) => g.value));
    // Only where the list is the literal the config names, evaluated there and not through another module.
    const list = globalsAt.file === globalsRef.file ? mapLiteral(model, globalsRef) : null;
    const addGlobal = (path: string) => (list ? oneEditFix('addGlobal', `append '${path}' to ${label}`, globalsRef.file, appendString(list, path)) : {});

    // "map-diff": the harness keeps the map out of the list on purpose; `tripwire select` diffs the map key by key instead.
    if (complete && options.requireMapFile && globalsRef.selfReference !== 'map-diff') {
      const refs = [...touchfileRefs(model.config), ...(model.config.maps?.tiers ? [model.config.maps.tiers] : [])];
      const reported = new Set<string>();
      for (const ref of refs) {
        const files = mapFiles.get(mapKey(ref)) ?? [ref.file];
        // The file the config names, a module it re-exports through, or the defining file: any of them counts.
        // A map file that does not exist is reported as such (missingMapFile), once: no second finding that the list misses it.
        if (!model.fileSet.has(ref.file) || files.some((file) => matches(file)) || reported.has(ref.file)) continue;
        reported.add(ref.file);
        findings.push({
          messageId: 'mapFileNotGlobal',
          file: globalsAt.file,
          loc: globalsAt.loc,
          message: `${label} does not name the selection map ${ref.file} (${mapLabel(ref)}): a one-line edit to the map would deselect tests in silence. Add '${ref.file}'.`,
          ...addGlobal(ref.file),
        });
      }
    }

    for (const required of globalsRef.require) {
      if (complete && !matches(required)) {
        findings.push({
          messageId: 'requiredFileNotGlobal',
          file: globalsAt.file,
          loc: globalsAt.loc,
          message: `${label} does not name ${required}, which maps.globals.require lists: a change to it must re-run every paid test`,
          ...(model.fileSet.has(required) ? addGlobal(required) : {}),
        });
      }
      if (!model.fileSet.has(required)) {
        findings.push({ messageId: 'requiredFileMissing', file: model.configFile ?? 'tripwire.config.json', loc: FILE_START, message: `maps.globals.require names ${required}, which does not exist` });
      }
    }

    for (const glob of globals) {
      const dead = deadGlob(model, glob);
      if (dead) findings.push(dead);
    }
    return findings;
  },
});
