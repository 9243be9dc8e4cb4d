import type { Rule } from 'eslint';
import type { JSONSchema4 } from 'json-schema';
import * as z from 'zod';
import type { TripwireRule } from '../rule.js';
import { SUPPRESSION_WITHOUT_REASON } from '../engine/index.js';
import { findingsForFile, INVALID_CONFIG } from './adapter.js';

const ESLINT_LANGUAGES = new Set(['js/js', 'markdown/commonmark', 'markdown/gfm']);

/**
 * The ESLint face of a tripwire rule: the same `check` over the same model,
 * reporting the findings located in the linted file. No second implementation.
 */
export function toEslintRule(rule: TripwireRule): Rule.RuleModule {
  // A YAML parser for ESLint (yaml-eslint-parser) presents YAML files as `js/js`.
  const languages = [...new Set(rule.meta.languages.flatMap((language) => (language === 'yaml/yaml' ? ['js/js'] : ESLINT_LANGUAGES.has(language) ? [language] : [])))];
  const report = (context: Rule.RuleContext): void => {
    for (const finding of findingsForFile(rule, context)) {
      const fix = finding.fix;
      // ESLint edits the linted file only: a fix that reaches another file is `tripwire fix`'s.
      const suggest = fix && fix.edits.every((edit) => edit.file === finding.file)
        ? [{ messageId: fix.messageId, data: { description: fix.description }, fix: (fixer: Rule.RuleFixer) => fix.edits.map((edit) => fixer.replaceTextRange(edit.range, edit.text)) }]
        : [];
      context.report({
        loc: {
          start: { line: finding.line, column: Math.max(0, finding.column - 1) },
          end: { line: finding.endLine ?? finding.line, column: Math.max(0, (finding.endColumn ?? finding.column) - 1) },
        },
        messageId: finding.messageId,
        data: { message: finding.message },
        ...(suggest.length > 0 && { suggest }),
      });
    }
  };
  return {
    meta: {
      type: 'problem',
      docs: { description: rule.meta.description, url: rule.meta.url, recommended: rule.meta.recommended },
      messages: eslintMessages(rule),
      ...(rule.meta.fixes && { hasSuggestions: true }),
      schema: [optionsSchema(rule)],
      languages,
    },
    create(context) {
      return {
        'Program:exit': () => report(context),
        'root:exit': () => report(context),
      };
    },
  };
}

/**
 * One ESLint message per kind, so that an ESLint user can tell kinds apart by
 * id (plus an invalid configuration, which any rule can be the one to report);
 * the text is rendered by the rule, with its data, like the CLI's.
 */
function eslintMessages(rule: TripwireRule): Record<string, string> {
  const ids = [...Object.keys(rule.meta.messages), SUPPRESSION_WITHOUT_REASON, INVALID_CONFIG];
  const fixes = Object.keys(rule.meta.fixes ?? {});
  return Object.fromEntries([...ids.map((id) => [id, '{{message}}']), ...fixes.map((id) => [id, '{{description}}'])]);
}

/** The rule's zod options as the JSON Schema ESLint validates with (as plain JSON: ESLint's ajv wants no `$schema`). */
function optionsSchema(rule: TripwireRule): JSONSchema4 {
  const plain: JSONSchema4 = JSON.parse(JSON.stringify(z.toJSONSchema(rule.options, { io: 'input', unrepresentable: 'any' })));
  delete plain.$schema;
  return plain;
}
