import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from '../support/repo.js';

interface Probe {
  parsed: number;
  cached: number;
  read: number;
  typescriptLoaded: boolean;
  findings: string[];
}

/** One `run()` in a fresh process, so that "the compiler was never loaded" is observable. */
function probe(cwd: string, cacheLocation: string, cache = true): Probe {
  // The fact cache alone: verdicts stored by the last run would answer without a fact (engine/verdicts.ts).
  for (const name of readdirSync(cacheLocation)) if (name.startsWith('verdicts-')) rmSync(join(cacheLocation, name));
  const dist = (path: string): string => pathToFileURL(join(PACKAGE_ROOT, 'dist/src', path)).href;
  const script = `
    import { run } from ${JSON.stringify(dist('engine/index.js'))};
    import { isTypeScriptLoaded } from ${JSON.stringify(dist('parse/typescript.js'))};
    const result = await run({ cwd: ${JSON.stringify(cwd)}, cacheLocation: ${JSON.stringify(cacheLocation)}, cache: ${cache} });
    console.log(JSON.stringify({
      parsed: result.model.stats.parsed,
      cached: result.model.stats.cached,
      read: result.model.stats.read,
      typescriptLoaded: isTypeScriptLoaded(),
      findings: result.findings.map((f) => f.file + ':' + f.line + ' ' + f.ruleId),
    }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

const REPO = {
  // Only the paid-call rule: this file is about the cache, and the map rules would read more files.
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/*.test.ts"] }, "rules": { "touchfiles-cover-paid-tests": "off", "tiers-cover-paid-tests": "off", "global-touchfiles-present": "off" } }',
  'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n`,
  'test/format.test.ts': `export const x = 1;\n`,
  'test/helpers/judge.ts': `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\n`,
  'test/evals/a.test.ts': `import OpenAI from 'openai';\n`,
};

describe('the fact cache', () => {
  it('makes a second run with no changes parse nothing and load no parser', () => {
    const dir = makeGitRepo(REPO);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-cache-'));
    const cold = probe(dir, cacheLocation);
    // Read: the three scripts the rule reaches, and the config (whose globs a rule checks).
    expect(cold).toEqual({ parsed: 3, cached: 0, read: 4, typescriptLoaded: true, findings: ['test/judge.test.ts:1 no-paid-calls-in-free-tests'] });
    const warm = probe(dir, cacheLocation);
    // Every script is committed and unmodified: git's blob ids find their facts without reading them.
    expect(warm).toEqual({ parsed: 0, cached: 3, read: 1, typescriptLoaded: false, findings: cold.findings });
  });

  it('keys a modified or untracked file by the blob id of its bytes, so its facts are reused once cached', () => {
    const dir = makeGitRepo(REPO);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-cache-'));
    writeFileSync(join(dir, 'test/format.test.ts'), `export const x = 2;\n`);
    writeFileSync(join(dir, 'test/new.test.ts'), `export const y = 1;\n`);
    // Four scripts (the paid test is not reached with the map rules off) and the config.
    expect(probe(dir, cacheLocation)).toMatchObject({ parsed: 4, cached: 0, read: 5 });
    // The two changed files are read again (git has no id for them) but not parsed.
    expect(probe(dir, cacheLocation)).toMatchObject({ parsed: 0, cached: 4, read: 3, typescriptLoaded: false });
    // Committed with the same bytes, their index ids equal the ids their bytes were keyed by.
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'more'], { cwd: dir });
    expect(probe(dir, cacheLocation)).toMatchObject({ parsed: 0, cached: 4, read: 1 });
  });

  it('re-parses only the file that changed, and finds what the change introduced', () => {
    const dir = makeGitRepo(REPO);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-cache-'));
    probe(dir, cacheLocation);
    writeFileSync(join(dir, 'test/format.test.ts'), `import OpenAI from 'openai';\n`);
    expect(probe(dir, cacheLocation)).toEqual({
      parsed: 1,
      cached: 2,
      read: 2,
      // Parsed on a worker thread while this one read the cache (engine/prefetch.ts): the compiler never loaded here.
      typescriptLoaded: false,
      findings: ['test/format.test.ts:1 no-paid-calls-in-free-tests', 'test/judge.test.ts:1 no-paid-calls-in-free-tests'],
    });
  });

  it('is neither read nor written with cache: false', () => {
    const dir = makeGitRepo(REPO);
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-cache-'));
    probe(dir, cacheLocation);
    expect(probe(dir, cacheLocation, false)).toMatchObject({ parsed: 3, cached: 0, typescriptLoaded: true });
  });
});
