/** What a service runs: `node <script> run --config <file> …`, from a folder, with a PATH. */
export interface ServiceSpec {
  name: string;
  execPath: string;
  script: string;
  args: string[];
  workingDirectory: string;
  /** The PATH its servers are looked up in (npx, uvx, python…): the installing shell's. */
  path: string;
}

/** A value a service file cannot hold: a line break would start a new line of the unit (a new setting). */
export class ServiceValueError extends Error {}

/** The first control character of `value`, named, or undefined. */
function controlCharacter(value: string): string | undefined {
  const found = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(value)?.[0];
  if (found === undefined) return undefined;
  if (found === '\n' || found === '\r' || found === '\u2028' || found === '\u2029') return 'a line break';
  if (found === '\t') return 'a tab';
  return `the control character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Each value of `spec` with the name a user knows it by: an option's value by its option. */
function namedValues(spec: ServiceSpec, extra: [string, string][]): [string, string][] {
  const args = spec.args.map((arg, i): [string, string] => {
    const option = spec.args[i - 1];
    return [
      option?.startsWith('--') ? (option === '--config' ? 'the config path' : `the value of ${option}`) : `the argument "${arg}"`,
      arg,
    ];
  });
  return [
    ["node's path", spec.execPath],
    ["this CLI's path", spec.script],
    ...args,
    ['the working folder', spec.workingDirectory],
    ['PATH', spec.path],
    ...extra,
  ];
}

/**
 * Refuses a value with a control character: written into a unit it would add lines of its own
 * (`--host "x\nExecStartPre=…"`), and XML 1.0 cannot hold most of them at all (an invalid plist).
 */
export function refuseControlCharacters(spec: ServiceSpec, extra: [string, string][] = []): void {
  for (const [name, value] of namedValues(spec, extra)) {
    const found = controlCharacter(value);
    if (found)
      throw new ServiceValueError(
        `${name} (${JSON.stringify(value)}) contains ${found}, which a service file cannot hold. Nothing was written.`,
      );
  }
}

/**
 * One word of a unit file, quoted when needed, with `%` (specifiers) escaped, and `$` too where
 * systemd expands variables (command lines, not `Environment=`).
 */
export function systemdWord(word: string, variables = true): string {
  let escaped = word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%');
  if (variables) escaped = escaped.replace(/\$/g, '$$$$');
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? escaped : `"${escaped}"`;
}

/** A systemd user unit: restarts on failure; SIGTERM to the bridge alone, so it stops its servers itself. */
export function systemdUnit(spec: ServiceSpec): string {
  refuseControlCharacters(spec);
  const command = [spec.execPath, spec.script, ...spec.args].map((word) => systemdWord(word)).join(' ');
  return [
    '# Written by "xiaozhi-tray service install"; remove with "xiaozhi-tray service uninstall".',
    '[Unit]',
    'Description=Xiaozhi Tray bridge: serves MCP tools to the xiaozhi voice assistant',
    'Documentation=https://github.com/xiaozhi-tray/xiaozhi-tray#run-as-a-service',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${command}`,
    // A path setting takes the rest of the line as it is: no quotes, only specifiers escaped.
    `WorkingDirectory=${spec.workingDirectory.replace(/%/g, '%%')}`,
    `Environment=${systemdWord(`PATH=${spec.path}`, false)}`,
    'Restart=on-failure',
    'RestartSec=5',
    // The bridge stops its own servers (whole process trees) on SIGTERM; the rest of the group
    // is killed only if something is left when it has exited.
    'KillMode=mixed',
    'TimeoutStopSec=30',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A launchd agent: starts at login, restarted when it exits with an error, output to a log file. */
export function launchdPlist(spec: ServiceSpec, label: string, logFile: string): string {
  refuseControlCharacters(spec, [
    ['the label', label],
    ['the log file', logFile],
  ]);
  const string = (value: string) => `<string>${xml(value)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by "xiaozhi-tray service install"; remove with "xiaozhi-tray service uninstall". -->',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  ${string(label)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...[spec.execPath, spec.script, ...spec.args].map((arg) => `    ${string(arg)}`),
    '  </array>',
    '  <key>WorkingDirectory</key>',
    `  ${string(spec.workingDirectory)}`,
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>PATH</key>',
    `    ${string(spec.path)}`,
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    '  <integer>10</integer>',
    '  <key>ProcessType</key>',
    '  <string>Background</string>',
    '  <key>StandardOutPath</key>',
    `  ${string(logFile)}`,
    '  <key>StandardErrorPath</key>',
    `  ${string(logFile)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

const winQuote = (value: string) => `\\"${value}\\"`;

/** Windows has no user service manager to set up: say what to do instead, with this machine's paths. */
export function windowsAdvice(spec: ServiceSpec): string {
  const command = [winQuote(spec.execPath), winQuote(spec.script), ...spec.args.map((a) => (/[\s"]/.test(a) ? winQuote(a) : a))].join(' ');
  return [
    'On Windows, "service install" sets nothing up. The desktop app is the way to keep the bridge running',
    'there: install Xiaozhi Tray for Windows and turn on "Launch at login" in its tray menu; it runs the same',
    'engine, with your servers, and stops them all when you quit. To run this headless bridge instead, create',
    'a scheduled task that starts it when you sign in (remove it with the second command):',
    '',
    `  schtasks /Create /TN "${spec.name}" /SC ONLOGON /RL LIMITED /F /TR "${command}"`,
    `  schtasks /Delete /TN "${spec.name}" /F`,
  ].join('\n');
}
