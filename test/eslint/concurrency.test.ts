import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/overlay.js';

/** Runs the real eslint binary with the built plugin's recommended preset; returns (rule, file, line) of each message. */
function eslint(cwd: string, concurrency: string): string[] {
  const run = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'node_modules/eslint/bin/eslint.js'), `--concurrency=${concurrency}`, '--format', 'json', '.'], { cwd, encoding: 'utf8' });
  // 1: lint errors found (ESLint may also warn on stderr that a small run does not need workers).
  expect(run.status).toBe(1);
  const results: { filePath: string; messages: { ruleId: string | null; line: number }[] }[] = JSON.parse(run.stdout);
  return results.flatMap((result) => result.messages.map((m) => `${m.ruleId} ${result.filePath.slice(cwd.length + 1)}:${m.line}`)).sort();
}

describe('eslint --concurrency', () => {
  it('gives the same findings with two workers as with one', () => {
    const dir = fixtureRepo('rules/no-paid-calls-in-free-tests/bad');
    const plugin = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/index.js')).href;
    writeFileSync(join(dir, 'eslint.config.js'), `import tripwire from ${JSON.stringify(plugin)};\nexport default [...tripwire.configs.recommended];\n`);
    const single = eslint(dir, 'off');
    expect(single.filter((line) => line.startsWith('tripwire/no-paid-calls-in-free-tests ')).length).toBe(20);
    expect(eslint(dir, '2')).toEqual(single);
  });
});
