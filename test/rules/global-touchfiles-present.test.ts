import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { rules } from '../../rules/index.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo } from '../support/repo.js';

async function findings(overlay?: string): Promise<string[]> {
  const result = await check({ cwd: fixtureRepo('maps/good', overlay), cache: false, rules: ['global-touchfiles-present'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

describe('global-touchfiles-present on fixtures/maps', () => {
  it('finds nothing in the good harness, whose globals name the map, the runner and the store', async () => {
    expect(await findings()).toEqual([]);
  });

  it('reports globals that no longer name the selection map file', async () => {
    expect(await findings('maps/bad/globals-missing-map-file')).toEqual([
      "test/helpers/touchfiles.ts:90:34 global-touchfiles-present GLOBAL_TOUCHFILES does not name the selection map test/helpers/touchfiles.ts (E2E_TOUCHFILES): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/touchfiles.ts'.",
    ]);
  });

  it('reports a computed global once: it may be the map file itself, so no mapFileNotGlobal on top', async () => {
    expect(await findings('maps/bad/computed-map-file-global')).toEqual([
      'test/helpers/touchfiles.ts:93:3 global-touchfiles-present cannot evaluate the map statically: cannot evaluate a call to relative() statically',
    ]);
  });

  it('reports a computed global once: it may be the required store, so no requiredFileNotGlobal on top', async () => {
    expect(await findings('maps/bad/computed-required-global')).toEqual([
      'test/helpers/touchfiles.ts:97:3 global-touchfiles-present cannot evaluate the map statically: cannot evaluate a call to relative() statically',
    ]);
  });

  it('counts globals built from a constant: the map file and the required files are named', async () => {
    expect(await findings('maps/ok/named-global-paths')).toEqual([]);
  });
});

/** `file:line:column messageId message` of each finding, and the fix it carries. */
async function reported(dir: string): Promise<{ at: string; fix?: unknown }[]> {
  const result = await check({ cwd: dir, cache: false, rules: ['global-touchfiles-present'] });
  return result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.message}`, ...(f.fix && { fix: f.fix }) }));
}

describe('global-touchfiles-present: what each finding says, and where', () => {
  it('an emptied list, at the list', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/empty-globals'))).toEqual([
      { at: 'test/helpers/touchfiles.ts:91:53 emptyGlobals GLOBAL_TOUCHFILES is empty: a change to the runner, the store or the map itself would select nothing' },
    ]);
  });

  it('a list without the map file, at the list, with the fix that appends it', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/globals-missing-map-file'))).toEqual([
      {
        at: "test/helpers/touchfiles.ts:90:34 mapFileNotGlobal GLOBAL_TOUCHFILES does not name the selection map test/helpers/touchfiles.ts (E2E_TOUCHFILES): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/touchfiles.ts'.",
        fix: { messageId: 'addGlobal', description: "append 'test/helpers/touchfiles.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [4784, 4784], text: "\n  'test/helpers/touchfiles.ts'," }] },
      },
    ]);
  });

  it('a list without a required file, at the list, with the fix that appends it', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/required-file-not-global'))).toEqual([
      {
        at: 'test/helpers/touchfiles.ts:90:34 requiredFileNotGlobal GLOBAL_TOUCHFILES does not name test/helpers/store.ts, which maps.globals.require lists: a change to it must re-run every paid test',
        fix: { messageId: 'addGlobal', description: "append 'test/helpers/store.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [4815, 4815], text: "\n  'test/helpers/store.ts'," }] },
      },
    ]);
  });

  it('a required file that does not exist, at the start of the config file', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/required-file-missing'))).toEqual([
      { at: 'tripwire.config.json:1:1 requiredFileMissing maps.globals.require names test/helpers/maps/search.ts, which does not exist' },
    ]);
  });

  it('a required file that does not exist, at the start of package.json when the config is its "tripwire" key', async () => {
    const dir = makeGitRepo({
      'package.json': '{\n  "name": "evals",\n  "tripwire": {\n    "maps": {\n      "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n      "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/store.ts"] }\n    }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/store.ts'];\n",
    });
    expect(await reported(dir)).toEqual([
      { at: 'package.json:1:1 requiredFileMissing maps.globals.require names test/helpers/store.ts, which does not exist' },
      { at: "test/helpers/touchfiles.ts:2:65 deadGlob glob 'test/helpers/store.ts' matches no file: a change there would select nothing. Fix the path, or declare generated paths in maps.generated." },
    ]);
  });

  it('a tier map in a file of its own that the list does not name, at the list', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/tiers.ts", "export": "E2E_TIERS" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts'];\n",
      'test/helpers/tiers.ts': 'export const E2E_TIERS = {};\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/helpers/touchfiles.ts:2:34 mapFileNotGlobal GLOBAL_TOUCHFILES does not name the selection map test/helpers/tiers.ts (E2E_TIERS): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/tiers.ts'.",
        fix: { messageId: 'addGlobal', description: "append 'test/helpers/tiers.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [96, 96], text: ", 'test/helpers/tiers.ts'" }] },
      },
    ]);
  });

  it('nothing when the list names the tier map file too', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/tiers.ts", "export": "E2E_TIERS" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/tiers.ts'];\n",
      'test/helpers/tiers.ts': 'export const E2E_TIERS = {};\n',
    });
    expect(await reported(dir)).toEqual([]);
  });

  it('two maps with the same export name in different files: only the one the list misses is reported', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "MAP" },\n    "tiers": { "file": "test/helpers/tiers.ts", "export": "MAP" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const MAP = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts'];\n",
      'test/helpers/tiers.ts': 'export const MAP = {};\n',
    });
    expect((await reported(dir)).map((finding) => finding.at)).toEqual([
      "test/helpers/touchfiles.ts:2:34 mapFileNotGlobal GLOBAL_TOUCHFILES does not name the selection map test/helpers/tiers.ts (MAP): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/tiers.ts'.",
    ]);
  });

  it('nothing when there is no tier map and the list names the touchfile map', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts'];\n",
    });
    expect(await reported(dir)).toEqual([]);
  });

  it('nothing when the config names a module that re-exports the map and the list names only the defining file', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/index.ts", "export": "E2E_TOUCHFILES" },\n    "globals": { "file": "test/helpers/globals.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/index.ts': "export { E2E_TOUCHFILES } from './touchfiles.js';\n",
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\n',
      'test/helpers/globals.ts': "export const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts'];\n",
    });
    expect(await reported(dir)).toEqual([]);
  });

  it('a list that names neither the re-exporting module nor the defining file, at the list', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/index.ts", "export": "E2E_TOUCHFILES" },\n    "globals": { "file": "test/helpers/globals.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/index.ts': "export { E2E_TOUCHFILES } from './touchfiles.js';\n",
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\n',
      'test/helpers/globals.ts': "export const GLOBAL_TOUCHFILES = ['test/helpers/globals.ts'];\n",
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/helpers/globals.ts:1:34 mapFileNotGlobal GLOBAL_TOUCHFILES does not name the selection map test/helpers/index.ts (E2E_TOUCHFILES): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/index.ts'.",
        fix: { messageId: 'addGlobal', description: "append 'test/helpers/index.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/globals.ts', range: [59, 59], text: ", 'test/helpers/index.ts'" }] },
      },
    ]);
  });
});

describe('global-touchfiles-present: requireMapFile', () => {
  const rule = rules.find((candidate) => candidate.id === 'global-touchfiles-present');

  it('is on by default, and may be turned off only with a reason', () => {
    expect(rule?.parseOptions(undefined)).toEqual({ requireMapFile: true });
    expect(() => rule?.parseOptions({ requireMapFile: false })).toThrow(/requireMapFile: false needs a \\"reason\\"/);
    expect(rule?.parseOptions({ requireMapFile: false, reason: 'the harness diffs the old and new maps' })).toEqual({ requireMapFile: false, reason: 'the harness diffs the old and new maps' });
  });

  it('off: a list without the map file is not reported, one without a required file still is', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/run.ts"] }\n  },\n  "rules": {\n    "global-touchfiles-present": ["error", { "requireMapFile": false, "reason": "the harness diffs the old and new maps" }]\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/*.json'];\n",
      'test/helpers/run.ts': 'export const run = (): void => {};\n',
      'test/helpers/store.json': '{}\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: 'test/helpers/touchfiles.ts:2:34 requiredFileNotGlobal GLOBAL_TOUCHFILES does not name test/helpers/run.ts, which maps.globals.require lists: a change to it must re-run every paid test',
        fix: { messageId: 'addGlobal', description: "append 'test/helpers/run.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [89, 89], text: ", 'test/helpers/run.ts'" }] },
      },
    ]);
  });
});
