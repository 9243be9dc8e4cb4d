// The info strings of a Markdown code fence that hold shell commands.

export const SHELL_LANGUAGES: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'shell', 'console', 'shellsession', 'ksh', 'dash', 'fish', 'terminal']);
