import type { ESLint, Linter } from 'eslint';
import { createPreset } from './shared.js';

/** Every rule at error, and unused disable directives reported: nothing is switched off in silence. */
export function strict(plugin: ESLint.Plugin): Linter.Config[] {
  return [...createPreset('strict', plugin, () => true), { name: 'tripwire/strict/directives', linterOptions: { reportUnusedDisableDirectives: 'error' } }];
}
