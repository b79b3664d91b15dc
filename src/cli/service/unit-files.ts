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
