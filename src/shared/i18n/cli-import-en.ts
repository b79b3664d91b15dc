/** What `import` and `init` say of another program's file (the preview, the summary); merged into en.ts. */
export const cliImportEn = {
  'cli.preview.codeNote': 'can run other code before the server starts',
  'cli.preview.codeWarning':
    '  warning: server "{name}" sets {vars}, which can run other code before the server starts; check the {count, plural, one {value} other {values}} above',
  'cli.preview.setsCode': '"{name}" sets {vars}',
  'cli.init.codeEnvShown': '  {label}, server "{name}" sets {vars}, which can run other code before the server starts:',
  'cli.preview.setsCodeOf': '"{name}" of {label} sets {vars}',
  'cli.preview.codeRefused':
    'Nothing was written: {which}, which can run other code before the server starts. If you trust the values shown above, run again with --allow-code-env.',
  'cli.preview.ownSecret':
    "    {name} is one of Xiaozhi Tray's own secrets (or holds one): it is never taken from the environment; give a value with --input {id}=… only if this server really needs it",
  'cli.preview.inEnvironment':
    '    set in this environment ({value}): --use-env {name} sends it to that server; or give another with --input {id}=…',
  'cli.preview.toolSettings': '  {count, plural, one {# tool setting} other {# tool settings}}',
  'cli.import.added': '  added: {names}',
  'cli.import.replacedNames': '  replaced: {names}',
  'cli.import.endpointNames': '  endpoints: {names}',
  'cli.import.skippedNames': '  skipped: {names}',
  'cli.import.nameList': '{first}, {next}',
  'cli.import.clauseList': '{first}; {next}',
  'cli.config.warningIn': '{file}: {warning}',
  'cli.init.skippedNeeds': 'warning: skipped server "{name}" of {label}: it needs {needs} (give it with {hint})',
  'cli.init.give': '--input {id}=VALUE',
  'cli.init.giveOrUseEnv': '--input {id}=VALUE, or --use-env {name}',
  'cli.init.fromApp': '{label}: ',
  'cli.init.addedNames': ' ({names})',
};
