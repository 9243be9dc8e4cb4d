import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildModelSync } from '../../src/engine/index.js';
import { sealed } from '../../src/util/cache-secret.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';

// A cache the checked change could write is a verdict the change chose. These
// tests forge real caches the way a pull request would: the same shape, one
// fact changed so that a finding disappears.

const CACHE = 'node_modules/.cache/tripwire';

const REPO = {
  '.gitignore': 'node_modules\n',
  // node_modules exists, so the caches live in the repository's node_modules/.cache/tripwire.
  'node_modules/.keep': '',
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
  'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n`,
  'test/helpers/judge.ts': `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\n`,
};

const JUDGE = 'test/judge.test.ts:1:1 no-paid-calls-in-free-tests/transitivePaidCall';

function temp(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

interface Checked {
  code: number | null;
  findings: string[];
  cached: boolean;
  stderr: string;
}

function check(dir: string, xdg: string, ...args: string[]): Checked {
  const result = runCli(['check', '--format', 'json', ...args], dir, { XDG_CACHE_HOME: xdg });
  const output = JSON.parse(result.stdout) as { findings: { file: string; line: number; column: number; ruleId: string; messageId: string }[]; summary: { cached?: boolean } };
  return {
    code: result.code,
    findings: output.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId}`),
    cached: output.summary.cached === true,
    stderr: result.stderr,
  };
}

interface Probe {
  parsed: number;
  cached: number;
  findings: string[];
  cacheRefused: string | null;
}

/** One `run()` in a fresh process: how many facts came from the cache, and what was found. */
function probe(dir: string, xdg: string, cacheLocation?: string): Probe {
  // The fact cache alone: verdicts stored by the last run would answer without a fact (engine/verdicts.ts).
  for (const cache of [cacheLocation ?? join(dir, CACHE)]) {
    for (const name of existsSync(cache) ? readdirSync(cache) : []) if (name.startsWith('verdicts-')) rmSync(join(cache, name));
  }
  const check = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/engine/index.js')).href;
  const options = { cwd: dir, ...(cacheLocation !== undefined && { cacheLocation }) };
  const script = `
    import { run } from ${JSON.stringify(check)};
    const result = await run(${JSON.stringify(options)});
    console.log(JSON.stringify({
      parsed: result.model.stats.parsed,
      cached: result.model.stats.cached,
      findings: result.findings.map((f) => f.file + ':' + f.line + ':' + f.column + ' ' + f.ruleId + '/' + f.messageId),
      cacheRefused: result.cacheRefused,
    }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg } }));
}

function cacheFile(dir: string, prefix: 'facts' | 'results' | 'verdicts'): string {
  const name = readdirSync(dir).find((entry) => entry.startsWith(`${prefix}-`) && entry.endsWith(prefix === 'facts' ? '.facts' : '.json'));
  if (name === undefined) throw new Error(`no ${prefix} cache in ${dir}`);
  return join(dir, name);
}

/** What a forger does to a fact cache: the helper's import of openai becomes an import of lodash; everything else stays. */
function forgeFacts(file: string): void {
  const text = readFileSync(file, 'latin1');
  expect(text).toContain('"specifier":"openai"');
  writeFileSync(file, text.replaceAll('"specifier":"openai"', '"specifier":"lodash"'));
}

/** Seals each record of a fact cache file again under the key in `xdg`: a forger who holds the user's key. Each MAC keeps its length, so the index still holds. */
function resealRecords(file: string, xdg: string, context: string): void {
  const text = readFileSync(file, 'latin1');
  const key = readFileSync(join(xdg, 'tripwire', 'key'));
  const head = /^tripwire-facts-1 (\d+)\n/.exec(text);
  expect(head).not.toBeNull();
  const start = (head?.[0].length ?? 0) + Number(head?.[1]);
  const records = text
    .slice(start)
    .split('\n')
    .map((record) => (record === '' ? record : sealed({ key, persistent: true, file: '' }, context, record.slice(record.indexOf(' ') + 1))));
  writeFileSync(file, `${text.slice(0, start)}${records.join('\n')}`);
}

describe('a fact cache the checked change wrote', () => {
  it('force-added to the repository, forged, in a fresh clone: not read, the finding is reported, and stderr says why', () => {
    const dir = makeGitRepo(REPO);
    expect(check(dir, temp('tripwire-xdg-')).findings).toEqual([JUDGE]);
    forgeFacts(cacheFile(join(dir, CACHE), 'facts'));
    git(dir, 'add', '-f', CACHE);
    git(dir, 'commit', '-q', '-m', 'a forged cache');

    const clone = join(temp('tripwire-clone-'), 'checkout');
    git(dir, 'clone', '-q', `file://${dir}`, clone);
    const run = check(clone, temp('tripwire-xdg-'));
    expect(run.code).toBe(1);
    expect(run.findings).toEqual([JUDGE]);
    expect(run.stderr).toMatch(/^tripwire: warning: git tracks \S+facts-[^ ]+\.facts in the cache directory \S+node_modules\/\.cache\/tripwire, so the change being checked chose what it holds: checking without the cache\./);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(check(clone, temp('tripwire-xdg-'), '--no-cache').findings).toEqual([JUDGE]);
  });

  it('tracked by git, it is refused even when its MAC verifies; the same bytes untracked would be read (the control)', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    expect(probe(dir, xdg).findings).toEqual([JUDGE]);
    const file = cacheFile(join(dir, CACHE), 'facts');
    forgeFacts(file);
    resealRecords(file, xdg, `tripwire-facts ${basename(file, '.facts')}`);

    // Outside the repository, where git tracks nothing, the resealed forgery verifies and hides the finding:
    // so what stops it in the repository is the refusal, not the MAC.
    const elsewhere = temp('tripwire-cache-');
    cpSync(file, join(elsewhere, basename(file)));
    expect(probe(dir, xdg, elsewhere)).toMatchObject({ parsed: 0, findings: [], cacheRefused: null });

    git(dir, 'add', '-f', relative(dir, file));
    const refused = probe(dir, xdg);
    expect(refused.findings).toEqual([JUDGE]);
    expect(refused.cached).toBe(0);
    expect(refused.cacheRefused).toContain(`git tracks ${file}`);
  });

  it('forged where git does not track it, its MAC fails: a miss, parsed again and overwritten', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    expect(probe(dir, xdg)).toMatchObject({ parsed: 2, cached: 0, findings: [JUDGE] });
    const file = cacheFile(join(dir, CACHE), 'facts');
    forgeFacts(file);
    // Each record has its own MAC: the forged one (the helper's) is parsed again, the test's is still read.
    expect(probe(dir, xdg)).toMatchObject({ parsed: 1, cached: 1, findings: [JUDGE], cacheRefused: null });
    expect(readFileSync(file, 'latin1')).not.toContain('lodash');
  });

  it('untouched, it is read: the second run parses nothing and finds the same', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    expect(probe(dir, xdg)).toMatchObject({ parsed: 2, cached: 0, findings: [JUDGE] });
    expect(probe(dir, xdg)).toEqual({ parsed: 0, cached: 2, findings: [JUDGE], cacheRefused: null });
  });

  it('tracked by git, the ESLint surface (which builds its model synchronously) refuses it too', () => {
    const dir = makeGitRepo(REPO);
    expect(check(dir, temp('tripwire-xdg-')).findings).toEqual([JUDGE]);
    expect(buildModelSync({ cwd: dir })).toMatchObject({ cacheRefused: null, cache: { file: expect.stringContaining(CACHE) } });
    git(dir, 'add', '-f', CACHE);
    const built = buildModelSync({ cwd: dir });
    expect(built.cacheRefused).toMatch(/^git tracks .*node_modules\/\.cache\/tripwire\/(?:facts|results)-/);
    expect(built.cache.file).toBeNull();
  });

  it('is not refused because the repository vendors other packages in node_modules', () => {
    const dir = makeGitRepo({ ...REPO, 'node_modules/left-pad/index.js': 'module.exports = 1;\n' });
    git(dir, 'add', '-f', 'node_modules/left-pad/index.js');
    git(dir, 'commit', '-q', '-m', 'vendor');
    const xdg = temp('tripwire-xdg-');
    const first = check(dir, xdg);
    expect(first).toMatchObject({ findings: [JUDGE], stderr: '' });
    expect(check(dir, xdg)).toEqual({ ...first, cached: true });
  });
});

describe('a result cache the checked change wrote', () => {
  it('forged to hold no findings, its MAC fails: the check runs and reports the finding', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    expect(check(dir, xdg)).toMatchObject({ code: 1, findings: [JUDGE], cached: false });
    const file = cacheFile(join(dir, CACHE), 'results');
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text.slice(text.indexOf('{'))) as { entries: { run: { findings: unknown[]; summary: { errors: number } } }[] };
    for (const entry of data.entries) {
      entry.run.findings = [];
      entry.run.summary.errors = 0;
    }
    writeFileSync(file, `${text.slice(0, text.indexOf('{'))}${JSON.stringify(data)}`);
    const run = check(dir, xdg);
    expect(run).toMatchObject({ code: 1, findings: [JUDGE], cached: false, stderr: '' });
  });

  it('with the verdicts of each rule forged to hold no findings, their MAC fails: the rules are evaluated and the finding reported', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    expect(check(dir, xdg)).toMatchObject({ code: 1, findings: [JUDGE], cached: false });
    rmSync(cacheFile(join(dir, CACHE), 'results'));
    const file = cacheFile(join(dir, CACHE), 'verdicts');
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text.slice(text.indexOf('{'))) as { entries: { findings: unknown[] }[] };
    expect(data.entries.some((entry) => entry.findings.length > 0)).toBe(true);
    for (const entry of data.entries) entry.findings = [];
    writeFileSync(file, `${text.slice(0, text.indexOf('{'))}${JSON.stringify(data)}`);
    expect(check(dir, xdg)).toMatchObject({ code: 1, findings: [JUDGE], cached: false, stderr: '' });
  });

  it('untouched, it answers the repeat run', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    const first = check(dir, xdg);
    expect(check(dir, xdg)).toEqual({ ...first, cached: true });
  });
});

describe('the cache key', () => {
  it('is created once, 32 bytes, mode 0600, outside the repository, and the repository is unchanged by it', () => {
    const dir = makeGitRepo(REPO);
    const xdg = temp('tripwire-xdg-');
    const listing = (): string => git(dir, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--stage');
    const before = listing();
    check(dir, xdg);
    const key = join(xdg, 'tripwire', 'key');
    const bytes = readFileSync(key);
    expect(bytes.length).toBe(32);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(relative(dir, key).startsWith('..')).toBe(true);
    check(dir, xdg);
    expect(readFileSync(key).equals(bytes)).toBe(true);
    // Nothing listed, added or changed in the repository; its caches hold no key.
    expect(listing()).toBe(before);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(readdirSync(join(dir, CACHE)).filter((name) => name.includes('key'))).toEqual([]);
  });

  it('when it cannot be kept, nothing is cached across runs, and the findings are the same', () => {
    const dir = makeGitRepo(REPO);
    const blocker = join(temp('tripwire-xdg-'), 'a-file');
    writeFileSync(blocker, '');
    const first = check(dir, blocker);
    expect(first).toMatchObject({ code: 1, findings: [JUDGE], cached: false, stderr: '' });
    expect(check(dir, blocker)).toEqual(first);
    expect(existsSync(join(dir, CACHE))).toBe(false);
  });
});
