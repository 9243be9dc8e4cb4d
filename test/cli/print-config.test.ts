import { describe, expect, it } from 'vitest';
import { PAID_COMMANDS, PAID_ENV, PAID_HOSTS, PAID_MODULES } from '../../src/vocab/paid.js';
import { rules } from '../../rules/index.js';
import { makeGitRepo, runCli } from '../support/repo.js';

const CONFIGURED = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] }, "paid": { "modules": ["@acme/llm-sdk"], "env": ["ACME_API_KEY"] }, "rules": { "no-dangling-references": "warn" } }\n',
  'test/a.test.ts': 'export const a = 1;\n',
};

function printConfig(dir: string, ...args: string[]): { file: string | null; root: string; config: Record<string, unknown> & { paid: Record<string, string[]>; rules: Record<string, [string, unknown]> } } {
  const run = runCli(['print-config', ...args], dir);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('tripwire print-config', () => {
  it('prints the built-in paid signatures beside the configured ones', () => {
    const { config } = printConfig(makeGitRepo(CONFIGURED));
    expect(config.paid.modules).toEqual([...PAID_MODULES, '@acme/llm-sdk']);
    expect(config.paid.commands).toEqual(PAID_COMMANDS);
    expect(config.paid.hosts).toEqual(PAID_HOSTS);
    expect(config.paid.env).toEqual([...PAID_ENV, 'ACME_API_KEY']);
    expect(config.paid.probeFlags).toContain('--version');
  });

  it('fills in every default and gives every rule its severity and options', () => {
    const dir = makeGitRepo(CONFIGURED);
    const printed = printConfig(dir);
    expect(printed.file).toMatch(/tripwire\.config\.json$/);
    expect(printed.config).toMatchObject({ frozen: '.tripwire/frozen.json', locks: '.tripwire/locks.json', baseline: '.tripwire/baseline.json', preset: 'recommended', ignore: [], removed: [] });
    expect(Object.keys(printed.config.rules).sort()).toEqual(rules.map((rule) => rule.id).sort());
    expect(printed.config.rules['no-dangling-references']?.[0]).toBe('warn');
    expect(printed.config.rules['no-paid-calls-in-free-tests']?.[0]).toBe('error');
  });

  it('says when no configuration was found and prints the defaults', () => {
    const printed = printConfig(makeGitRepo({ 'test/a.test.ts': 'export const a = 1;\n' }));
    expect(printed.file).toBeNull();
    expect(printed.config.tests).toMatchObject({ include: ['**/*.{test,spec}.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'] });
  });

  it('exits 2 on an invalid configuration', () => {
    const run = runCli(['print-config'], makeGitRepo({ 'tripwire.config.json': '{ "tests": { "inclued": [] } }\n' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid configuration');
  });

  it('--help prints its own usage', () => {
    const run = runCli(['print-config', '--help'], makeGitRepo(CONFIGURED));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: tripwire print-config /);
  });
});
