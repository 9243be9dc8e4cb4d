import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheSecret, unsealedBytes } from '../../src/util/cache-secret.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';
import { temporaryDirs } from '../support/temp.js';

// The bin as shipped runs the CLI's bundle with V8's compiled code of an
// earlier run (src/cli/launch.ts), kept in the user's cache directory and
// sealed with the user's key. Each case has its own XDG_CACHE_HOME.

const { tempDir, track } = temporaryDirs('launch');

const REPO = {
  'tripwire.config.json': JSON.stringify({
    tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/*.test.ts'] },
    rules: { 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' },
  }),
  'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n`,
  'test/helpers/judge.ts': `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\n`,
  'test/evals/a.test.ts': `import OpenAI from 'openai';\n`,
};

/** The CLI's compiled code kept under `home`: each file's name and its breadth (the run it came from: 0 answered, 1 evaluated). */
function kept(home: string): { name: string; breadth: number | null }[] {
  const dir = join(home, 'tripwire', 'compiled');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith('cli-'));
  } catch {
    return [];
  }
  const secret = cacheSecret(join(home, 'tripwire', 'key'));
  return names.map((name) => {
    const key = name.slice('cli-'.length, -'.bin'.length);
    const record = unsealedBytes(secret, `tripwire-compiled cli ${key}`, readFileSync(join(dir, name)));
    return { name, breadth: record === null ? null : (record[0] ?? null) };
  });
}

describe('the bin as shipped', () => {
  it("keeps the compiled code of the broadest run: a version's is replaced by a check's, which a cached check leaves", () => {
    const home = tempDir();
    const dir = track(makeGitRepo(REPO));
    const cache = tempDir();
    const env = { XDG_CACHE_HOME: home };
    expect(runCli(['--version'], dir, env).code).toBe(0);
    expect(kept(home)).toEqual([{ name: expect.stringMatching(/^cli-[0-9a-f]{40}\.bin$/), breadth: 0 }]);

    const first = runCli(['check', '--format', 'json', '--cache-location', cache], dir, env);
    expect(first.code).toBe(1);
    const [evaluated] = kept(home);
    expect(evaluated?.breadth).toBe(1);
    const bytes = readFileSync(join(home, 'tripwire', 'compiled', evaluated?.name ?? ''));

    const second = runCli(['check', '--format', 'json', '--cache-location', cache], dir, env);
    expect(JSON.parse(second.stdout).summary.cached).toBe(true);
    expect(JSON.parse(second.stdout).findings).toEqual(JSON.parse(first.stdout).findings);
    expect(readFileSync(join(home, 'tripwire', 'compiled', evaluated?.name ?? '')).equals(bytes)).toBe(true);
  });

  it('gives the same findings with compiled code, without it, and with forged code (which it does not use, and writes again)', () => {
    const home = tempDir();
    const dir = track(makeGitRepo(REPO));
    const env = { XDG_CACHE_HOME: home };
    const findings = (): unknown => {
      const result = runCli(['check', '--format', 'json', '--no-cache'], dir, env);
      expect(result.code).toBe(1);
      return JSON.parse(result.stdout).findings;
    };
    const withNone = findings();
    // With --no-cache nothing is kept.
    expect(kept(home)).toEqual([]);
    expect(runCli(['check', '--format', 'json', '--cache-location', tempDir()], dir, env).code).toBe(1);
    const [written] = kept(home);
    expect(written?.breadth).toBe(1);
    const file = join(home, 'tripwire', 'compiled', written?.name ?? '');
    const forged = readFileSync(file);
    forged[forged.length - 10] = (forged[forged.length - 10] ?? 0) ^ 0xff;
    writeFileSync(file, forged);
    const result = runCli(['check', '--format', 'json', '--cache-location', tempDir()], dir, env);
    expect(JSON.parse(result.stdout).findings).toEqual(withNone);
    expect(kept(home)).toEqual([{ name: written?.name, breadth: 1 }]);
  });

  it('starts a staged check\'s worker before the bundle loads: the findings of the unbundled bin, and a run the result cache answers stops it', () => {
    const home = tempDir();
    const dir = track(makeGitRepo(REPO));
    const cache = tempDir();
    const env = { XDG_CACHE_HOME: home };
    writeFileSync(join(dir, 'test/helpers/judge.ts'), `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\nexport const edited = 1;\n`);
    git(dir, 'add', 'test/helpers/judge.ts');
    const args = ['check', '--staged', '--format', 'json', '--cache-location', cache];
    const unbundled = runCli(['check', '--staged', '--format', 'json', '--no-cache'], dir, env, { bin: join(PACKAGE_ROOT, 'dist/src/cli/bin.js') });
    // The safety net is for a worker left holding the process open; the test asserts no time.
    const first = runCli(args, dir, env, { killAfterMs: 60_000 });
    expect([first.code, first.stderr]).toEqual([1, '']);
    expect(JSON.parse(first.stdout).findings).toEqual(JSON.parse(unbundled.stdout).findings);
    const second = runCli(args, dir, env, { killAfterMs: 60_000 });
    expect([second.code, JSON.parse(second.stdout).summary.cached]).toEqual([1, true]);
    expect(JSON.parse(second.stdout).findings).toEqual(JSON.parse(first.stdout).findings);
  });
});
