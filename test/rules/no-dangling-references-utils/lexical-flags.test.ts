import { describe, expect, it } from 'vitest';
import { lexicalFlags, lexicalSubcommands } from '../../../rules/no-dangling-references-utils/lexical-flags.js';

describe('lexicalFlags', () => {
  it("reads typer's and click's options, each flag once at its first line, and a Python script known by its #! line", () => {
    const text = [
      '#!/usr/bin/env python3',
      'name = typer.Option("--name")',
      "@click.option('-v', \"--verbose\")",
      "p.add_argument('--since')  # p.add_argument('--commented')",
      "p.add_argument('--since', default=1)",
      "p.add_argument('--1x', '--odd\")",
      "p.add_argument(",
      "    '--next-line')",
      "print('--not-declared')",
    ].join('\n');
    expect(lexicalFlags('bin/notes', text)).toEqual([
      { name: '--name', line: 2 },
      { name: '--verbose', line: 3 },
      { name: '--since', line: 4 },
    ]);
  });

  it('reads the long patterns of shell case arms with parentheses, quotes and spaces, and no short flag or comment', () => {
    const text = ['#!/bin/bash', 'case "$1" in', '  (--x) ;;', "  '--y'|\"-z\") ;;", '  --a | --b ) ;;', '  -s) ;;', '  # --c) ;;', '  echo --d) ;;', '  --x) ;;', 'esac'].join('\n');
    expect(lexicalFlags('scripts/ship.sh', text)).toEqual([
      { name: '--x', line: 3 },
      { name: '--y', line: 4 },
      { name: '--a', line: 5 },
      { name: '--b', line: 5 },
    ]);
  });

  it('reads nothing from a file of another language', () => {
    expect(lexicalFlags('lib/tool.rb', "opts.on('--since')\n")).toEqual([]);
    expect(lexicalFlags('bin/tool', "#!/usr/bin/env ruby\ncase x\n  --x) ;;\n")).toEqual([]);
  });
});

describe('lexicalSubcommands', () => {
  it('reads add_parser and .command with spaces inside the call, and no mismatched quote', () => {
    expect([...lexicalSubcommands('cli.py', "sub.add_parser( 'init' )\nsub.add_parser('bad\")\n", false)]).toEqual(['init']);
    expect([...lexicalSubcommands('cli.js', 'program.command( "build" );\nprogram.command(x);\n', true)]).toEqual(['build']);
    expect([...lexicalSubcommands('cli.py', "program.command('build')\n", false)]).toEqual([]);
    expect([...lexicalSubcommands('cli.js', "sub.add_parser('init')\n", true)]).toEqual([]);
  });

  it('reads the word arms of a case on $1 in any of its spellings, down one level only, until its esac, and not a comment', () => {
    const shell = [
      '#!/bin/sh',
      'case ${1} in',
      '  build) : ;;',
      '  # hidden) : ;;',
      'esac',
      'case $1 in',
      '  (lint) : ;;',
      '  "ship" | \'tag\') : ;;',
      '  close) echo case closed ;;',
      '  end) echo esac ;;',
      '  more) : ;;',
      'esac',
      'other) : ;;',
      'case "$1" in',
      '  check)',
      '    case "$2" in',
      '      deep) : ;;',
      '    esac',
      '    ;;',
      '  fix) : ;;',
      'esac',
    ].join('\n');
    expect([...lexicalSubcommands('bin/kit', shell, false)]).toEqual(['build', 'lint', 'ship', 'tag', 'close', 'end', 'more', 'check', 'fix']);
  });
});
