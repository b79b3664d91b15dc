// The headless bridge's watchdog (out/cli/watchdog.js, a bundle of its own so that it loads in a
// fraction of the CLI's memory): started by the bridge with `node`, see runWatchdog.
import { ignoreStopSignals, runWatchdog } from '../main/core/servers/watchdog';

process.title = 'xiaozhi-tray watchdog';
ignoreStopSignals();
void runWatchdog(process.stdin).finally(() => process.exit(0));
