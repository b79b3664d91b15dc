/** The app's own log lines worded for the window and the CLI (issue 33); merged into en.ts. */
export const logWordsEn = {
  'problem.log.connectionTest': 'Connection test ({seconds} s).',
  'problem.log.connectionTest.reason.unreachable': 'Connection test: not reachable ({seconds} s). {cause}',
  'problem.log.connectionTest.reason.refused': 'Connection test: reached, but the token was not accepted ({seconds} s). {cause}',
  'problem.log.connectionTest.reason.listed':
    'Connection test: working, xiaozhi read your {count, plural, one {# tool} other {# tools}} ({seconds} s).',
  'problem.log.connectionTest.reason.listedRelay':
    'Connection test: working, xiaozhi read your {count, plural, one {# tool} other {# tools}} through the self-hosted server ({seconds} s).',
  'problem.log.connectionTest.reason.deviceTalks':
    'Connection test: connected. A self-hosted server reads the tools when a device starts talking ({seconds} s).',
  'problem.log.connectionTest.reason.notListed': 'Connection test: connected, but xiaozhi did not ask for the tools ({seconds} s).',
  'problem.log.connectionTest.reason.notListedBecause':
    'Connection test: connected, but xiaozhi did not ask for the tools ({seconds} s). {cause}',
  'problem.log.imported':
    'Imported: {added, plural, one {# server} other {# servers}} added, {replaced} replaced, {endpoints, plural, one {# endpoint} other {# endpoints}} added, {skipped} skipped',
  'import.doneAdded': 'Added: {names}.',
  'import.doneSkipped': 'Skipped: {names}.',
  'problem.log.stopped': 'Stopped',
  'problem.log.registryUnreadable': 'catalogue: could not read the online directory; using the list that came with the app. {cause}',
  'problem.log.registryUnreadable.reason.cached':
    'catalogue: could not read the online directory; using the list read last time and the one that came with the app. {cause}',
  'problem.log.stdoutNotJson': 'printed text that is not JSON on stdout (it was skipped; logs belong on stderr): {error}',
  'problem.log.closedAfter': 'Closed after {seconds} s: {cause}',
  'problem.cli.started': 'xiaozhi-tray {version} (pid {pid}), config {file} ({format})',
  'problem.cli.runtimeMissing':
    'server "{server}": the command "{command}" needs {runtime}, which was not found on PATH here; install it with: {install} (or start with --fetch-runtimes, and the app fetches it itself, from the config\'s download sources)',
  // The same for an English reader with the official sources (a Chinese one is given the mirrors' command).
  'problem.cli.runtimeMissing.reason.official':
    'server "{server}": the command "{command}" needs {runtime}, which was not found on PATH here; install it with: {install} (or start with --fetch-runtimes, and the app fetches it itself, from the config\'s download sources)',
  'problem.cli.readableByOthers.reason.read':
    '{file} holds tokens or keys, and other users of this computer can read it (mode {mode}): make it yours only with: chmod 600 {quoted}',
  'problem.cli.readableByOthers.reason.change':
    '{file} holds tokens or keys, and other users of this computer can change it (mode {mode}): make it yours only with: chmod 600 {quoted}',
  'problem.cli.readableByOthers':
    '{file} holds tokens or keys that other users of this computer can reach (mode {mode}): chmod 600 {quoted}',
  // t-stale9
  'problem.log.connectionTest.reason.listedNone':
    'Connection test: working, xiaozhi read the tool list, but none of your tools are in it yet ({seconds} s).',
  // t-words9: the line said when the app makes the confirmation PIN.
  'problem.log.pinMade':
    '"Ask first" now needs you to say your confirmation PIN by voice (or press Allow in the window); xiaozhi no longer gets a code it could confirm with by itself. A PIN was made for you: see it in Settings, or change it there.',
  'problem.log.pinMade.reason.configFile':
    '"Ask first" now needs you to say your confirmation PIN by voice (or press Allow in the window); xiaozhi no longer gets a code it could confirm with by itself. A PIN was made for you: it is in the config file (confirmation.pin); change it there.',
  'problem.log.update.upToDate': 'Up to date ({version})',
  'problem.log.update.byHand': 'Version {version} is available; this copy is updated by hand',
  'problem.log.update.downloading': 'Downloading version {version}',
  'problem.log.update.downloaded': 'Version {version} is downloaded; it installs when the app restarts',
  'problem.log.update.restarting': 'Restarting to install version {version}',
  'problem.log.signedIn': 'Signed in to the server “{server}”',
  'problem.log.callTimedOut': 'call {tool} (server "{server}") did not finish within {seconds} s; the server was told to cancel it',
  'problem.log.callFailed': 'call {tool} failed: {detail}',
};
