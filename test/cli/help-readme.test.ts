import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { runCli } from '../support/repo.js';

// The help text is where the options are defined for a reader; the README's table of check's
// options must list exactly the same ones, so that neither grows an option the other lacks.

function longOptions(text: string): string[] {
  return [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();
}

/** The README table that starts with `header`, up to the first blank line after it. */
function readmeTable(readme: string, header: string): string {
  const start = readme.indexOf(header);
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, readme.indexOf('\n\n', start));
}

describe("check's options in --help and in the README", () => {
  it('are the same set', () => {
    const help = runCli(['check', '--help'], PACKAGE_ROOT);
    expect(help.code).toBe(0);
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('| option | meaning |');
    expect(start).toBeGreaterThan(-1);
    const table = readme.slice(start, readme.indexOf('\n\n', start));
    const documented = longOptions(table);
    expect(documented).toContain('--staged');
    expect(documented).toEqual(longOptions(help.stdout.slice(help.stdout.indexOf('Options for check:'), help.stdout.indexOf('Examples:'))));
  });
});

describe("print-inputs' options in --help and in the README", () => {
  it('are the same set', () => {
    const help = runCli(['print-inputs', '--help'], PACKAGE_ROOT);
    expect(help.code).toBe(0);
    const documented = longOptions(readmeTable(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8'), '| option | meaning |\n|---|---|\n| `--format text'));
    expect(documented).toContain('--check');
    expect(documented).toEqual(longOptions(help.stdout.slice(help.stdout.indexOf('Options for print-inputs'), help.stdout.indexOf('Examples:'))));
  });
});
