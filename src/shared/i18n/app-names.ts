/** Other apps go by the same name in every language: written once, used by both dictionaries. */
export const APP_NAMES = {
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
  'cherry-studio': 'Cherry Studio',
  windsurf: 'Windsurf',
  cline: 'Cline',
  codex: 'Codex',
} as const;

const IMPORTED_APPS = ['claude-desktop', 'cursor', 'vscode', 'windsurf', 'cline', 'codex'] as const;

/** `format.<app>` for each app whose config can be imported. */
export const APP_FORMAT_NAMES = Object.fromEntries(IMPORTED_APPS.map((app) => [`format.${app}`, APP_NAMES[app]])) as Record<
  `format.${(typeof IMPORTED_APPS)[number]}`,
  string
>;
