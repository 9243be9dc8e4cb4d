import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_IDS } from '../../src/rule-ids.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from '../support/repo.js';

// The package as a user gets it: packed from a checkout that has no dist/
// (prepack builds it), installed from the tarball into a project of its own,
// first without any optional peer, then with ESLint and the parser.

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
delete env.FORCE_COLOR;

function npm(args: string[], cwd: string): Run {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function node(script: string, cwd: string): Run {
  const result = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { cwd, encoding: 'utf8', env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function succeeded(run: Run): string {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

/** The work tree as a fresh clone would hold it (tracked and unignored files, so no dist/), with this checkout's node_modules for the build. */
function freshCheckout(into: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  for (const path of listed.split('\0')) {
    if (path === '' || !existsSync(join(PACKAGE_ROOT, path)) || !statSync(join(PACKAGE_ROOT, path)).isFile()) continue;
    mkdirSync(dirname(join(into, path)), { recursive: true });
    copyFileSync(join(PACKAGE_ROOT, path), join(into, path));
  }
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(into, 'node_modules'), 'dir');
}

const manifest: { devDependencies: Record<string, string> } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));

/** The checkout, the tarball and the consumer with its node_modules: removed after the test, passing or not. */
const created: string[] = [];
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('packs from a fresh checkout, installs into a consumer, and works there: the CLI, the API and the plugin without the optional peers, then ESLint with the preset', () => {
    const work = mkdtempSync(join(tmpdir(), 'tripwire-pack-'));
    created.push(work);
    const checkout = join(work, 'checkout');
    const out = join(work, 'out');
    mkdirSync(out);
    freshCheckout(checkout);
    expect(existsSync(join(checkout, 'dist'))).toBe(false);

    succeeded(npm(['pack', '--pack-destination', out], checkout));
    const tarballs = readdirSync(out).filter((name) => name.endsWith('.tgz'));
    expect(tarballs).toHaveLength(1);
    const tarball = join(out, tarballs[0] ?? '');

    const consumer = makeGitRepo({
      'package.json': '{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module" }\n',
      '.gitignore': 'node_modules/\n',
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
      'src/judge.ts': 'export const judge = (answer: string): boolean => answer.trim() !== "";\n',
      'test/judge.test.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
    });
    created.push(consumer);
    succeeded(npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], consumer));
    const installed = join(consumer, 'node_modules', 'eslint-plugin-tripwire');

    // What the tarball holds: the build, the licence, the metadata, maps that carry their sources.
    expect(existsSync(join(installed, 'dist/src/index.js'))).toBe(true);
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    const packed: Record<string, unknown> = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(packed).toMatchObject({ license: 'MIT', keywords: expect.arrayContaining(['eslint', 'eslintplugin', 'eslint-plugin']), repository: expect.anything(), homepage: expect.any(String), bugs: expect.anything() });
    expect(packed).toHaveProperty('dependencies.typescript', '>=5.5.0 <6.1.0');
    const maps = listFiles(join(installed, 'dist')).filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const withoutSources = maps.filter((file) => {
      const map: { sources: string[]; sourcesContent?: (string | null)[] } = JSON.parse(readFileSync(file, 'utf8'));
      return map.sourcesContent?.length !== map.sources.length || map.sourcesContent.some((text) => typeof text !== 'string');
    });
    expect(withoutSources).toEqual([]);

    // No optional peer is installed (and none is reachable from the consumer).
    const peers = node(`for (const name of ['eslint', '@eslint/markdown', '@typescript-eslint/parser']) await import(name).then(() => console.log('found', name), (error) => console.log(error.code));`, consumer);
    expect(succeeded(peers).trim().split('\n')).toEqual(['ERR_MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);

    // The bin npm links is the CLI's bundle (dist/cli/, with its worker), not the unbundled dist/src/ the plugin and the API import.
    expect(packed).toHaveProperty('bin.tripwire', 'dist/cli/bin.js');
    expect(realpathSync(join(consumer, 'node_modules/.bin/tripwire'))).toBe(realpathSync(join(installed, 'dist/cli/bin.js')));
    expect(readFileSync(join(installed, 'dist/cli/bin.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(existsSync(join(installed, 'dist/cli/extract-worker.cjs'))).toBe(true);
    const cli = spawnSync('npx', ['--no', 'tripwire', 'check', '--format', 'json'], { cwd: consumer, encoding: 'utf8', env });
    expect(cli.status, cli.stderr).toBe(1);
    const report: { findings: { ruleId: string; file: string; line: number }[] } = JSON.parse(cli.stdout);
    expect(report.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`)).toEqual(['no-paid-calls-in-free-tests test/judge.test.ts:1']);

    // Warm, after an edit: the installed bundle starts its extraction worker, which parses the edited script.
    writeFileSync(join(consumer, 'src/judge.ts'), 'export const judge = (answer: string): boolean => answer.length > 0;\n');
    const edited = spawnSync('npx', ['--no', 'tripwire', 'check', '--format', 'json', '--stats'], { cwd: consumer, encoding: 'utf8', env });
    expect(edited.status, edited.stderr).toBe(1);
    expect(JSON.parse(edited.stdout)).toHaveProperty('summary.stats.facts.workers', { threads: 1, parsed: 1 });

    const api = node(`import { check } from 'eslint-plugin-tripwire/api';\nconst { findings } = await check({ cwd: process.cwd(), cache: false });\nconsole.log(JSON.stringify(findings.map((f) => f.ruleId + ' ' + f.file + ':' + f.line)));`, consumer);
    expect(JSON.parse(succeeded(api))).toEqual(['no-paid-calls-in-free-tests test/judge.test.ts:1']);

    // The plugin imports; a preset says which peer it needs when it is read.
    const plugin = node(`import tripwire from 'eslint-plugin-tripwire';\nlet error = null;\ntry { tripwire.configs.recommended; } catch (e) { error = e.message; }\nconsole.log(JSON.stringify({ rules: Object.keys(tripwire.rules).length, error }));`, consumer);
    const loaded: { rules: number; error: string | null } = JSON.parse(succeeded(plugin));
    expect(loaded.rules).toBe(RULE_IDS.length);
    expect(loaded.error).toContain('npm i -D @typescript-eslint/parser');

    const peerVersions = ['eslint', '@typescript-eslint/parser'].map((name) => `${name}@${manifest.devDependencies[name] ?? 'missing'}`);
    succeeded(npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', ...peerVersions], consumer));
    writeFileSync(join(consumer, 'eslint.config.js'), "import tripwire from 'eslint-plugin-tripwire';\n\nexport default [...tripwire.configs.recommended];\n");
    const eslint = spawnSync('npx', ['--no', 'eslint', '.', '--format', 'json'], { cwd: consumer, encoding: 'utf8', env });
    expect(eslint.status, eslint.stderr).toBe(1);
    const results: { filePath: string; messages: { ruleId: string | null; line: number; message: string }[] }[] = JSON.parse(eslint.stdout);
    const messages = results.flatMap((result) => result.messages.map((m) => `${m.ruleId} ${result.filePath.slice(consumer.length + 1)}:${m.line}`));
    expect(messages).toEqual(['tripwire/no-paid-calls-in-free-tests test/judge.test.ts:1']);
    expect(results.flatMap((result) => result.messages)[0]?.message).toContain("free test imports the model SDK 'openai'");
  }, 600_000);
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}
