/** A whole string that is one identifier, as env var names and code words are spelled. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const WORD_CHAR = /[A-Za-z0-9_]/;
const WORD_START = /[A-Za-z_]/;

/**
 * Whether `text` has an identifier of `length` characters at `at`, exactly
 * where `/[A-Za-z_][A-Za-z0-9_]*\/g` would find one: no word character follows,
 * and the word characters before it (if any) are digits, which no identifier
 * starts with (`9FOO` holds `FOO`; `x9FOO` does not). Lets a search for a few
 * known names use `indexOf` instead of tokenizing the whole text.
 */
export function isIdentifierAt(text: string, at: number, length: number): boolean {
  const after = text[at + length];
  if (after !== undefined && WORD_CHAR.test(after)) return false;
  for (let i = at - 1; i >= 0; i--) {
    const char = text[i] ?? '';
    if (!WORD_CHAR.test(char)) return true;
    if (WORD_START.test(char)) return false;
  }
  return true;
}
