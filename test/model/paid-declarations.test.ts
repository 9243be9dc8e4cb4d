import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectionOf } from '../../src/analysis/selection.js';
import { buildModel } from '../../src/engine/index.js';
import { FACTS_VERSION } from '../../src/model/model.js';
import { VERSION } from '../../src/version.js';
import { makeGitRepo } from '../support/repo.js';

// What a paid file declares (its ids, the problems reading them, its self-gates) is
// kept with its facts when it follows from them alone, and evaluated again when it
// reads another file: an id imported from a helper changes with the helper.

describe('the paid declarations kept per file', () => {
  const files = {
    'tripwire.config.json': JSON.stringify({
      tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', arg: 0 }], selfGate: [{ env: 'EVALS_TIER' }] },
      maps: { touchfiles: [{ file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' }] },
    }),
    'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = { 'literal-id': ['test/evals/literal.test.ts'], 'imported-id': ['test/evals/imported.test.ts'] };\n",
    'test/helpers/ids.ts': "export const ID = 'imported-id';\n",
    'test/evals/literal.test.ts': "if (process.env.EVALS_TIER !== 'gate') process.exit(0);\nrunEval('literal-id');\n",
    'test/evals/imported.test.ts': "import { ID } from '../helpers/ids.js';\nrunEval(ID);\n",
  };
  const declared = (model: Awaited<ReturnType<typeof buildModel>>['model']): string[] => {
    const { selection, selfGates } = selectionOf(model);
    return [...selection.paidIds.map((paid) => `${paid.id} ${paid.file}:${paid.loc.line}`), ...[...selfGates].map(([file, gates]) => `${file} gates ${gates.map((gate) => gate.value).join(',')}`)].sort();
  };

  it('serves a file whose ids are its own without loading its facts, and evaluates an imported id again', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-paid-'));
    const first = await buildModel({ cwd, cacheLocation });
    expect(declared(first.model)).toEqual(['imported-id test/evals/imported.test.ts:2', 'literal-id test/evals/literal.test.ts:2', 'test/evals/literal.test.ts gates gate']);
    first.cache.save((id) => first.model.liveContent(id));

    writeFileSync(join(cwd, 'test/helpers/ids.ts'), "export const ID = 'renamed-id';\n");
    const second = await buildModel({ cwd, cacheLocation });
    // The map still names the file under the old id: a registration, at the file's start.
    expect(declared(second.model)).toEqual(['imported-id test/evals/imported.test.ts:1', 'literal-id test/evals/literal.test.ts:2', 'renamed-id test/evals/imported.test.ts:2', 'test/evals/literal.test.ts gates gate']);
    // Loaded: the map file and imported.test.ts from the cache, the edited ids.ts parsed; literal.test.ts's declarations come from the table.
    expect(second.model.stats).toMatchObject({ cached: 2, parsed: 1 });
    expect(second.model.loadedFiles().sort()).toEqual(['test/evals/imported.test.ts', 'test/evals/literal.test.ts', 'test/helpers/ids.ts', 'test/helpers/touchfiles.ts']);
  });
});

describe('a map evaluation kept with what it read (RepoModel.stored)', () => {
  const files = {
    'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, maps: { touchfiles: [{ file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' }] } }),
    'test/helpers/base-touchfiles.ts': "export const BASE = { 'chat-basic': ['src/chat.ts'] };\n",
    'test/helpers/touchfiles.ts': "import { BASE } from './base-touchfiles.js';\n// tripwire-disable-next-line touchfiles-cover-paid-tests\nexport const E2E_TOUCHFILES = { ...BASE, 'chat-long': ['src/chat.ts'] };\n",
  };
  const keys = (model: Awaited<ReturnType<typeof buildModel>>['model']): string[] => selectionOf(model).selection.touchfiles.map((entry) => `${entry.key.value} ${entry.key.file}:${entry.key.loc.line}`);

  it('is taken back without loading a map file, charged as loaded, and evaluated again once a file it read changes', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-stored-'));
    const first = await buildModel({ cwd, cacheLocation, trackReads: true });
    expect(keys(first.model)).toEqual(['chat-basic test/helpers/base-touchfiles.ts:1', 'chat-long test/helpers/touchfiles.ts:3']);
    // As a run does when it checks the suppression comments of the files it loaded.
    for (const file of first.model.loadedFiles()) first.model.suppressions(file);
    first.cache.save((id) => first.model.liveContent(id));

    const second = await buildModel({ cwd, cacheLocation, trackReads: true });
    expect(keys(second.model)).toEqual(keys(first.model));
    expect(second.model.stats).toMatchObject({ parsed: 0, cached: 0 });
    // Their suppression comments are checked as if the evaluation had loaded them.
    expect(second.model.loadedFiles().sort()).toEqual(['test/helpers/base-touchfiles.ts', 'test/helpers/touchfiles.ts']);
    expect(second.model.suppressions('test/helpers/touchfiles.ts')).toMatchObject([{ rules: ['touchfiles-cover-paid-tests'], reason: null }]);

    writeFileSync(join(cwd, 'test/helpers/base-touchfiles.ts'), "export const BASE = { 'chat-renamed': ['src/chat.ts'] };\n");
    const third = await buildModel({ cwd, cacheLocation, trackReads: true });
    expect(keys(third.model)).toEqual(['chat-renamed test/helpers/base-touchfiles.ts:1', 'chat-long test/helpers/touchfiles.ts:3']);
  });

  it('has a table of its own, and the one table all stored queries shared before is removed when the cache is saved', async () => {
    const cwd = makeGitRepo(files);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-stored-'));
    const shared = `facts-${VERSION}-f${FACTS_VERSION}.table-${createHash('sha1').update('stored queries').digest('hex').slice(0, 16)}.json`;
    writeFileSync(join(cacheLocation, shared), 'a table of an earlier version');
    writeFileSync(join(cacheLocation, `${shared}.log`), 'its log');
    const { model } = await buildModel({ cwd, cacheLocation, trackReads: true });
    expect(keys(model)).toEqual(['chat-basic test/helpers/base-touchfiles.ts:1', 'chat-long test/helpers/touchfiles.ts:3']);
    model.saveCache();
    const tables = readdirSync(cacheLocation).filter((name) => name.includes('.table-'));
    expect(tables).not.toContain(shared);
    expect(tables).not.toContain(`${shared}.log`);
    // The map's evaluation, in its own table.
    expect(tables.length).toBeGreaterThan(0);
  });
});
