/** The headless CLI's English (spread into en.ts). Every key must also exist in cli-zh-CN.ts. */
export const cliEn = {
  'cli.usage.badLang': '--lang must be en or zh-CN, not "{value}"',
  'cli.usage.needsValue': '--{name} needs a value: --{name} {value}',
  'cli.usage.switch': '--{name} is a switch and takes no value',
  'cli.usage.twice': '--{name} is given twice',
  'cli.usage.badChoice': '{flag} must be {choices}, not "{value}"',
  'cli.usage.badChoiceNear': '{flag} must be {choices}, not "{value}". Did you mean {near}?',
  'cli.usage.unknownOption': 'unknown option {option} for "{command}". Options: {options}',
  'cli.usage.unknownOptionNear': 'unknown option {option}. Did you mean --{near}?',
  'cli.usage.unknownCommand': 'Unknown command "{name}". Run "xiaozhi-tray help" for the list.',
  'cli.usage.unknownCommandNear': 'Unknown command "{name}". Did you mean "{near}"? Run "xiaozhi-tray help" for the list.',
  'cli.usage.optionFirst': '{option} comes after a command: xiaozhi-tray COMMAND [options]. Run "xiaozhi-tray help".',
  'cli.help.title': "xiaozhi-tray {version} — serve your MCP servers' tools to xiaozhi (小智)",
  'cli.help.usageLine': 'Usage: xiaozhi-tray COMMAND [options]',
  'cli.help.usage': 'Usage:',
  'cli.help.options': 'Options:',
  'cli.help.repeatable': ' (repeatable)',
  'cli.help.more': "xiaozhi-tray help COMMAND (or COMMAND --help, -h) shows a command's options; --version (-v) prints the version.",
  'cli.help.files':
    "FILE may be a Xiaozhi Tray config ({} is an empty one), xiaozhi-client's xiaozhi.config.json, or an\nmcpServers file such as the official example's mcp_config.json. MCP_ENDPOINT in the environment always\nadds an endpoint.",
  'cli.help.lang':
    '--lang en|zh-CN chooses the language of what is printed (default: from LC_ALL, LC_MESSAGES or LANG; JSON stays English).',
  'cli.group.start': 'Start here:',
  'cli.group.look': 'Look before you serve:',
  'cli.group.stats': 'See what xiaozhi did:',
  'cli.group.move': 'Move configs between apps:',
  'cli.group.clients': 'Serve other AI clients:',
  'cli.group.service': 'Keep it running:',
  'cli.opt.help': 'show the help of this command (also -h)',
  'cli.opt.version': 'print the version (also -v)',
  'cli.opt.config':
    'the config to use (a Xiaozhi Tray config, xiaozhi.config.json or an mcpServers file; default: xiaozhi-tray.json in this folder, when it is there)',
  'cli.opt.allow-env':
    "let another app's config fill ${env:NAME} outside a stdio server's env (a URL, a header, an argument): NAME's value goes wherever that file says",
  'cli.opt.json': 'print JSON instead of text',
  'cli.opt.tool-mode': 'all (default: every endpoint is served every tool), or router: find_tools and call_tool stand in for them',
  'cli.opt.log-format': 'text (default), or json: one JSON object a line, for log collectors',
  'cli.opt.input': 'a value the file asks for: input:ID=…, env:NAME=… or workspaceFolder=DIR',
  'cli.opt.use-env': "fill the file's ${env:NAME} with NAME from this shell (the preview shows it masked, and where it goes)",
  'cli.opt.allow-code-env':
    'with --yes: import servers that set NODE_OPTIONS, LD_PRELOAD, PYTHONPATH… (they can run other code before the server starts)',
  'cli.call.summary': 'call one tool exactly as xiaozhi would, and print what xiaozhi gets back',
  'cli.call.details':
    'The servers start, and the bridge connects to a stand-in for xiaozhi on 127.0.0.1 (never to your real\nendpoint) that does what xiaozhi does: initialize, notifications/initialized, tools/list (every page),\ntools/call. TOOL is the name xiaozhi sees (see "xiaozhi-tray tools"). Prints the text of the first\ncontent item, which is all xiaozhi reads; exits 1 when the result is an error.',
  'cli.call.opt.args': "the tool's arguments as a JSON object (default {})",
  'cli.call.opt.endpoint':
    'call as this endpoint (its name or id) would: through its tool set, mode and pinned tools (default: the default set)',
  'cli.check.summary': 'validate a config; prints each problem with its line and JSON path',
  'cli.check.details': 'Exits 0 when the config is valid (warnings are printed), 1 when it is not.',
  'cli.connect.summary': "a stdio MCP server relaying to the running app's local MCP server (Claude Desktop and other stdio-only clients)",
  'cli.connect.details': 'stdout carries MCP messages only; when the app is not running, one line on stderr says so and it exits 1.',
  'cli.connect.opt.client': 'the client this is (claude-desktop…): it gets the tool set chosen for it',
  'cli.connect.opt.url': "the app's local MCP server on this machine (default: read from the running app's state file)",
  'cli.connect.opt.force-url': "send the token to --url even when the running app's state file says it listens at another address",
  'cli.connect.opt.token-file': 'a file holding its bearer token (default: from the state file; with --url, XIAOZHI_TRAY_TOKEN)',
  'cli.connect.opt.token':
    'the same token on the command line, where every user of this computer sees it: prefer --token-file or XIAOZHI_TRAY_TOKEN',
  'cli.export.summary': "print the servers as a file other tools read, or this app as an entry of a client's config",
  'cli.export.details': 'The output holds the real values (keys, tokens): it is your own file.',
  'cli.export.opt.format':
    "mcp-servers (default: Claude Desktop, Cursor…), xiaozhi-client (xiaozhi.config.json), or cursor, claude-desktop, vscode, cherry-studio: the local MCP server as that client's entry",
  'cli.export.opt.mcp-port': "the local MCP server's port for a client entry (default: the config's, or the running app's)",
  'cli.export.opt.mcp-token-file': "a file holding its token (default: XIAOZHI_TRAY_MCP_TOKEN, the config's, or the running app's)",
  'cli.export.opt.mcp-token': 'the same token on the command line, where every user of this computer sees it: prefer --mcp-token-file',
  'cli.import.summary': "preview importing another app's MCP config into yours; writes only with --yes",
  'cli.import.details':
    "FILE may be Claude Desktop's, Cursor's, VS Code's, Windsurf's, Cline's or Codex's config, xiaozhi-client's\nxiaozhi.config.json, the official example's mcp_config.json, a bare server snippet or an endpoint URL\n(wss://api.xiaozhi.me/mcp/?token=…, quoted; it is added as an endpoint and its token is never printed).\nConflicts (same name, same command, same URL) are shown with what will happen to each, and every\nserver's env, headers and folder (secrets masked). A ${env:NAME} in the file is never filled from your\nenvironment unasked: give --use-env NAME (its value is shown masked) or --input env:NAME=VALUE.",
  'cli.import.opt.config': 'the Xiaozhi Tray config to import into (created if missing)',
  'cli.import.opt.yes': 'write the result (atomically); without it nothing is written',
  'cli.init.summary': 'write a working config: your endpoint, and the MCP servers your other apps already use',
  'cli.init.details':
    'The apps are found where they keep their configs (Claude Desktop, Cursor, VS Code, Windsurf, Cline,\nCodex, xiaozhi-client). The file is written atomically, then loaded again to check it. Without an\nendpoint the config is still valid: set MCP_ENDPOINT, or add one later in the web UI (run --ui).',
  'cli.init.opt.endpoint-file':
    'a file holding your xiaozhi MCP endpoint (wss://api.xiaozhi.me/mcp/?token=…); - reads it from stdin (with --yes)',
  'cli.init.opt.endpoint':
    'the endpoint on the command line, where other users of this computer see its token: prefer --endpoint-file, or the question',
  'cli.init.opt.import': 'all, none (default with --yes), or apps: claude-desktop, cursor, vscode, windsurf, cline, codex, xiaozhi-client',
  'cli.init.opt.yes': 'ask nothing: use the flags (and defaults) as they are',
  'cli.init.opt.force': 'replace FILE if it exists',
  'cli.run.summary': 'serve your tools to xiaozhi until stopped (Ctrl+C, or SIGTERM from a service manager)',
  'cli.run.details':
    'Stopping: Ctrl+C (SIGINT) stops every server and exits 130 (Ctrl+\\, SIGQUIT: 131); SIGTERM (kill, systemd, docker stop) stops\nevery server and exits 0. A second signal kills every server at once. Started by npx or npm, which do\nnot pass SIGTERM on, the bridge stops when they go away. Under a service manager, run\n`node …/bin/xiaozhi-tray.js run …` rather than npx (see "xiaozhi-tray help service").\n\nMCP_ENDPOINT in the environment always adds an endpoint. A Xiaozhi Tray config is updated when you\nchange settings in the web UI; another program\'s file is never rewritten.',
  'cli.run.opt.ui': 'also serve the window as a web page on 127.0.0.1 (the printed URL carries an access token)',
  'cli.run.opt.port': "the web page's port (implies --ui; default: any free port)",
  'cli.run.opt.host': 'listen on ADDR instead of 127.0.0.1, e.g. 0.0.0.0 for the LAN or in Docker (implies --ui)',
  'cli.run.opt.mcp-port':
    'also serve the tools as a local MCP server (streamable HTTP at 127.0.0.1:N/mcp) for Cursor, VS Code, Cherry Studio',
  'cli.run.opt.mcp-token-file':
    "a file holding the bearer token of /mcp (default: XIAOZHI_TRAY_MCP_TOKEN, the config's, or the one the last run used: made once, then kept); each app's own is derived from it",
  'cli.run.opt.mcp-token': 'the same token on the command line, where every user of this computer sees it: prefer --mcp-token-file',
  'cli.servers.summary': 'start the configured servers and show the state of each, without serving xiaozhi',
  'cli.servers.details':
    'Each server is started, given time to come up or fail (at most the start grace, limits.startGraceMs: 20 s), then stopped; a server still downloading and installing on its first run (npx, uvx…) is waited for, and says so. Exits 1 when an enabled server did not start.',
  'cli.service.summary': 'run the bridge in the background: a systemd user service (Linux) or a launchd agent (macOS)',
  'cli.service.details':
    'The service runs `node …/bin/xiaozhi-tray.js run --config FILE` directly (not through npx, which\ndoes not pass SIGTERM on), with the PATH of the shell you install it from, so that npx, uvx and\npython servers are found. It restarts on failure. Linux: ~/.config/systemd/user/NAME.service (add\n`sudo loginctl enable-linger $USER` to run without a login). macOS: ~/Library/LaunchAgents/\nme.xiaozhi.tray.NAME.plist, logs in ~/Library/Logs/xiaozhi-tray/. Windows: explains the alternatives.',
  'cli.service.opt.config': 'install: the config the service runs (its full path is written)',
  'cli.service.opt.name': "the service's name, to run more than one (default xiaozhi-tray)",
  'cli.service.opt.no-start': 'install: write the file only; start nothing',
  'cli.service.opt.log-level': 'install: passed on to run',
  'cli.service.opt.log-format': 'install: passed on to run',
  'cli.service.opt.ui': "install: passed on to run (the URL with its token is in the service's log)",
  'cli.service.opt.port': 'install: passed on to run',
  'cli.service.opt.host': 'install: passed on to run',
  'cli.service.opt.mcp-port': 'install: passed on to run (the local MCP server for Cursor, VS Code, Cherry Studio)',
  'cli.service.opt.mcp-token-file': "install: passed on to run by its full path (the local server's token)",
  'cli.service.opt.mcp-token': 'refused: the service file is readable by others; use --mcp-token-file',
  'cli.stats.summary': 'what xiaozhi called over the last day and week: calls, failures, latency per tool',
  'cli.stats.opt.range': 'only this period (default: both)',
  'cli.stats.opt.dir': "the app's data folder to read (default: where the bridge keeps it; env XIAOZHI_TRAY_STATE_DIR)",
  'cli.tools.summary': 'start the servers and print the tools exactly as xiaozhi gets them, with the server of each',
  'cli.tools.details':
    'Nothing is served to xiaozhi. A server still downloading and installing on its first run (npx, uvx…) is waited for, and says so. Exits 1 when an enabled server did not start.',
  'cli.tools.opt.endpoint':
    'list what this endpoint (its name or id) is served: its tool set, mode and pinned tools (default: the default set)',
  'cli.call.opt.json': 'print the whole tools/call response frame, byte for byte as sent to xiaozhi',
  'cli.opt.log-level': 'the least important log lines shown on {where}: debug, info, warn or error (default {level})',
  'cli.init.opt.config': 'the config to write (default xiaozhi-tray.json in this folder)',
  'cli.service.opt.allow-env':
    "install: passed on to run (let another app's config fill ${env:NAME} outside a stdio server's env (a URL, a header, an argument): NAME's value goes wherever that file says)",
  'cli.service.opt.tool-mode':
    'install: passed on to run (all (default: every endpoint is served every tool), or router: find_tools and call_tool stand in for them)',
  'cli.stats.details':
    'Reads activity.json, which a running bridge (headless or the desktop app) updates a few seconds after each call and keeps for a week. Arguments and results are never kept.',
};
