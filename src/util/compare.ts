/** Strings in code-unit order, not the locale's: output must not depend on the machine it runs on. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
