import type { ESLint, Linter } from 'eslint';
import { markdownConfig } from './shared.js';

/** The rules that read shipped Markdown (every one of them is recommended), on `**\/*.md`, opt-in beside either preset. */
export function markdown(plugin: ESLint.Plugin): Linter.Config[] {
  return [markdownConfig('markdown', plugin, (rule) => rule.meta.recommended)];
}
