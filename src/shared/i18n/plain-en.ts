/**
 * The window for people who are not developers (issue 33): plain sentences first, numbers behind
 * "details". Kept in a file of their own so other work on the dictionaries merges cleanly.
 */
export const plainEn = {
  'plain.details': 'Details',
  'plain.serving.autoAll': 'Xiaozhi sees {count, plural, one {your # tool} other {all # of your tools}} directly.',
  'plain.serving.autoSearch': 'You have many tools, so xiaozhi searches for the right one first, then calls it.',
  'plain.serving.all':
    'Xiaozhi always sees {count, plural, one {your # tool} other {all # of your tools}} directly, however many there are.',
  'plain.serving.search': 'Xiaozhi searches your tools first, then calls the one it needs.',
  'plain.mode.auto': 'Automatic',
  'plain.modeHint.auto': 'Every tool while there are few; when there are too many for xiaozhi, it searches first.',
  'plain.useAuto': 'Choose automatically',
  'plain.typical': 'Usually',
  'plain.slow': 'When slow: {time}',
  'plain.slowColumn': 'When slow',
  'plain.confirmation.allowed.window': 'allowed in the window',
  'plain.confirmation.allowed.webUi': 'allowed in the web page',
  'plain.confirmation.allowed.voice': 'confirmed by voice with the PIN',
  'plain.confirmation.denied.window': 'denied in the window',
  'plain.confirmation.denied.webUi': 'denied in the web page',
  'plain.confirmation.denied.voice': 'declined by voice',
  'plain.confirmation.expired': 'not confirmed in time',
  'plain.confirmation.withdrawn': 'no longer allowed by voice',
  'plain.catalogue.add': 'Add',
  'plain.catalogue.addNamed': 'Add {name}',
  'plain.servers.copyOf':
    'This runs the same program as "{name}". Added twice, xiaozhi gets each of its tools twice, renamed with the server’s name in front, and may no longer find the names it used.',
  'problem.log.starting':
    'Starting: {servers, plural, one {# server} other {# servers}}, {endpoints, plural, one {# endpoint} other {# endpoints}}',
  'problem.log.toolListChanged': 'The tool list changed: {count, plural, one {# tool} other {# tools}}',
  'plain.localServer.overridden':
    'This run was started with {options}: those choices win over the settings below until the next start without them.',
  'plain.localServer.overriddenAt':
    'This run was started with {options}: it listens at {url}, whatever the settings below say. They apply again at the next start without those options.',
  'problem.log.localListening': 'The local MCP server listens at {url}',
  'plain.cli.servers': '{count, plural, one {# server} other {# servers}}',
  'plain.cli.noClientConfig': 'warning: no {client} config was found on this machine',
  'plain.cli.added': '{count, plural, one {# server} other {# servers}} added',
  'plain.cli.skipped': ', {count} skipped (already there, or not usable)',
} as const;
