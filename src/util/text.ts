/** `1 error`, `3 errors`: a count with its noun, singular or plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
