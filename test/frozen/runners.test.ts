import { describe, expect, it } from 'vitest';
import { assertionSites, invalidAssertName, namesRunner, runnerLanguage } from '../../src/frozen/runners.js';

describe('runnerLanguage', () => {
  it('knows shell and Python by extension or #! line, and nothing else', () => {
    expect(runnerLanguage('tests/run-unit.sh', '')).toBe('shell');
    expect(runnerLanguage('scripts/gate', '#!/usr/bin/env bash\n')).toBe('shell');
    expect(runnerLanguage('scripts/gate', '#!/bin/sh -e\n')).toBe('shell');
    expect(runnerLanguage('check_config.py', '')).toBe('python');
    expect(runnerLanguage('scripts/check', '#!/usr/bin/env python3\n')).toBe('python');
    expect(runnerLanguage('scripts/check', '#!/usr/bin/env node\n')).toBeNull();
    expect(runnerLanguage('README.md', '# gate\n')).toBeNull();
  });
});

describe('assertionSites', () => {
  it('counts shell commands by their word, after operators and keywords, never in comments or as arguments', () => {
    const text = ['check a', '  check b # check c', '# check d', 'echo check e', 'ok && check f; check g', 'if expect_invalid h; then :; fi', 'check() { :; }', 'checker i'].join('\n');
    expect(assertionSites(text, 'shell', ['check', 'expect_*'])).toEqual([1, 2, 5, 5, 6]);
  });

  it('counts Python calls, with a receiver, and the assert statement only when asked', () => {
    const text = ['self.assertEqual(a, b)', 'assert_valid(x)  # assert_valid(y)', 'assert x == 1', 'value = "assert_valid(z)"', 'not_assert_valid(q)'].join('\n');
    expect(assertionSites(text, 'python', ['assert*'])).toEqual([1, 2]);
    expect(assertionSites(text, 'python', ['assert*', 'assert'])).toEqual([1, 2, 3]);
  });
});

describe('invalidAssertName', () => {
  it('accepts words with * wildcards and refuses a bare * or anything else', () => {
    expect(['check', 'assert_*', 'expect*ok'].map(invalidAssertName)).toEqual([false, false, false]);
    expect(['*', 'a.b', 'x(', ''].map(invalidAssertName)).toEqual([true, true, true, true]);
  });
});

describe('namesRunner', () => {
  it('finds the runner by path, by a file name with an extension, or by a path ending in an extensionless name', () => {
    expect(namesRunner('run: bash tests/run-unit.sh', 'tests/run-unit.sh')).toBe(true);
    expect(namesRunner('cd tests && ./run-unit.sh', 'tests/run-unit.sh')).toBe(true);
    expect(namesRunner('cd scripts && ./gate', 'scripts/gate')).toBe(true);
  });

  it('does not take a bare word or a longer name for the runner', () => {
    expect(namesRunner('gate:\n\techo skipped', 'scripts/gate')).toBe(false);
    expect(namesRunner('bash tests/run-unit.sh.bak', 'tests/run-unit.sh')).toBe(false);
    expect(namesRunner('bash tests/prerun-unit.sh', 'tests/run-unit.sh')).toBe(false);
  });
});
