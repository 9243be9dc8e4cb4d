import { describe, expect, it } from 'vitest';
import { lexicalFlags, lexicalSubcommands } from '../../../rules/no-dangling-references-utils/lexical-flags.js';
import { commandPrefix } from '../../../rules/no-dangling-references-utils/commands.js';

describe('lexicalFlags', () => {
  it("reads argparse's and click's long flags in Python, never a commented one", () => {
    const text = ['import argparse', 'p = argparse.ArgumentParser()', "p.add_argument('--since', '-s')", 'p.add_argument("--format", default="md")', "# p.add_argument('--legacy')", '@click.option("--dry-run", is_flag=True)', ''].join('\n');
    expect(lexicalFlags('tools/notes.py', text)).toEqual([
      { name: '--since', line: 3 },
      { name: '--format', line: 4 },
      { name: '--dry-run', line: 6 },
    ]);
  });

  it("reads the long patterns of a shell case, and nothing from another language or a plain file", () => {
    const shell = ['#!/bin/sh', 'case "$1" in', '  --dry-run|-n) DRY=1 ;;', '  "--tag") TAG=$2 ;;', '  *) usage ;;', 'esac', 'echo "--not-a-flag)"'].join('\n');
    expect(lexicalFlags('bin/kit-ship', shell)).toEqual([
      { name: '--dry-run', line: 3 },
      { name: '--tag', line: 4 },
    ]);
    expect(lexicalFlags('README.md', "p.add_argument('--since')")).toEqual([]);
  });
});

describe('lexicalSubcommands', () => {
  it("reads argparse's add_parser, commander's .command, and the words of a shell case on $1 only", () => {
    expect([...lexicalSubcommands('cli.py', "sub = p.add_subparsers()\nsub.add_parser('init')\nsub.add_parser(\"ship\", help='x')\n", false)]).toEqual(['init', 'ship']);
    expect([...lexicalSubcommands('src/cli.ts', "program.command('build <dir>');\nprogram.command(`lint`);\nprogram.option('--x');\n", true)]).toEqual(['build', 'lint']);
    const shell = ['#!/bin/sh', 'case "$2" in', '  other) : ;;', 'esac', 'case "${1:-}" in', '  check) : ;;', '  fix|repair)', '    case "$2" in', '      deep) : ;;', '    esac ;;', '  *) : ;;', 'esac'].join('\n');
    expect([...lexicalSubcommands('bin/kit-doctor', shell, false)]).toEqual(['check', 'fix', 'repair']);
  });
});

describe('commandPrefix', () => {
  it('is the prefix of at least three executables and two thirds of them, else none', () => {
    expect(commandPrefix(new Set(['kit-build', 'kit-lint', 'kit-ship', 'kit']))).toBe('kit-');
    expect(commandPrefix(new Set(['kit-build', 'kit-lint', 'setup']))).toBeNull();
    expect(commandPrefix(new Set(['kit-build', 'kit-lint', 'kit-ship', 'a', 'b']))).toBeNull();
  });
});
