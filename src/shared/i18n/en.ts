/** English UI text. Every key must also exist in zh-CN.ts (a test checks). */
export const en = {
  'app.name': 'Xiaozhi Tray',

  'tray.tooltip': '{app} · {connected}/{total} endpoints connected · {servers} servers · {tools} tools',
  'tray.tooltip.stopped': '{app} · stopped',
  'tray.tooltip.noEndpoint': '{app} · no endpoint yet',
  'tray.endpoint.connected': '{name}: connected',
  'tray.endpoint.connecting': '{name}: connecting…',
  'tray.endpoint.waiting': '{name}: retrying in {seconds} s',
  'tray.endpoint.disconnected': '{name}: disconnected',
  'tray.endpoint.disabled': '{name}: off',
  'tray.noEndpoints': 'No endpoint configured',
  'tray.serversFailed': '{count} server(s) failed',
  'tray.start': 'Start',
  'tray.stop': 'Stop',
  'tray.open': 'Open Xiaozhi Tray',
  'tray.launchAtLogin': 'Launch at login',
  'tray.openLogs': 'Open logs folder',
  'tray.quit': 'Quit',
} as const;
