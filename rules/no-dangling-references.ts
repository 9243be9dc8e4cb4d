import * as z from 'zod';
import { shippedFiles } from '../src/analysis/seams.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import { baseFindings } from './no-dangling-references-utils/base.js';
import { unknownCommands } from './no-dangling-references-utils/commands.js';
import { deadConfigGlobs } from './no-dangling-references-utils/config-globs.js';
import { missingReferences } from './no-dangling-references-utils/references.js';
import { removedTokenFindings } from './no-dangling-references-utils/removed.js';
import { leftoverSeamFindings } from './no-dangling-references-utils/seams.js';

const messages = {
  missingPath: { description: 'Shipped text links to, or names in code, a path in this repository that does not exist.' },
  missingAnchor: { description: 'A link names a heading anchor that the target Markdown file does not define.' },
  removedToken: { description: 'Text names a token of a mechanism the configuration declares removed (`removed`); one finding per file and token.', heuristic: true },
  removedFileReference: { description: 'With --base: a link, import or path in code names a file the diff deleted or renamed.' },
  removedFileMention: { description: 'With --base: text names the file name of a file the diff deleted or renamed; one finding per file and name.', heuristic: true },
  removedCommandMention: { description: 'With --base: docs or a skill run, as a command, an executable the diff deleted (a bin/ file, a package.json bin name); one finding per file and command.', heuristic: true },
  removedSubcommandMention: { description: "With --base: code in docs, skills or scripts runs a subcommand the diff removed from a CLI that still exists (argparse add_parser, commander/yargs .command, a shell case on $1), as the first word after the CLI's name; one finding per file and subcommand.", heuristic: true },
  removedTermMention: { description: 'With --base: documentation uses a term whose definition the diff removed from a glossary or concepts document (a heading or a `**Term**:` line) and that no glossary defines now; one finding per file and term.', heuristic: true },
  unknownCommand: { description: "Docs or a skill run a command with the prefix most of the repository's own executables share (bin/proj-*) that names no executable; one finding per file and command.", heuristic: true },
  removedExportImport: { description: 'With --base: an import names an export the diff removed from its module.' },
  removedExportMention: { description: 'With --base: code in documentation uses, as an identifier, an export the diff removed and nothing exports any more.', heuristic: true },
  removedEnvMention: { description: 'With --base: text names an env var whose last read the diff removed; one finding per file and variable.', heuristic: true },
  removedFlagMention: { description: "With --base: text names a CLI flag the diff removed from its option list, on that CLI's command line or in prose about it; one finding per file and flag.", heuristic: true },
  staleStubRead: { description: 'A fixture stub reads an env var that nothing else in the repository sets or names any more.' },
  staleSeamSet: { description: 'A test sets an env var of the stubs\' family that no stub or other file reads any more.' },
  deadGlob: { description: 'A glob under shipped.exclude, shipped.illustrative, shipped.allow[].files or removed[].allow matches no file.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

const fixes = {
  replaceRenamedPath: 'With --base: replace a string literal that is the path of a file the diff renamed by its new path.',
};

export default createRule({
  id: 'no-dangling-references',
  meta: {
    description: 'Nothing names a mechanism that is gone: a path or anchor that does not exist, a token of a removed mechanism, a test seam left behind, or what the diff removed.',
    languages: ['js/js', 'markdown/commonmark', 'markdown/gfm', 'json/json'],
    recommended: true,
    messages,
    fixes,
  },
  options: z.strictObject({
    seams: z.boolean().default(true).describe('Report env vars that a fixture stub reads but nothing sets any more, and the reverse.'),
  }),
  check(model, options, units) {
    const findings = new Map<string, RuleFinding<MessageIds>>();
    const add = (list: readonly RuleFinding<MessageIds>[]): void => {
      for (const finding of list) {
        const key = `${finding.file}:${finding.loc.line}:${finding.loc.column}`;
        if (!findings.has(key)) findings.set(key, finding);
      }
    };
    // What the diff removed says more than "does not exist" about the same reference, so it goes first.
    add(baseFindings(model));
    for (const file of shippedFiles(model)) {
      add(units.of(file, () => missingReferences(model, file)));
    }
    // Whole-repository scans are units of their own: each is taken back while what it read (most of it through
    // parts: the tokens a file names, its env uses) is the same, though the diff the rule reads above changed.
    add(units.of('\0removed tokens', () => removedTokenFindings(model)));
    add(units.of('\0unknown commands', () => unknownCommands(model)));
    if (options.seams) add(units.of('\0leftover seams', () => leftoverSeamFindings(model)));
    add(units.of('\0config globs', () => deadConfigGlobs(model)));
    return [...findings.values()];
  },
});

