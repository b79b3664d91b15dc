/** What the watch needs of Electron: its power monitor and `net.isOnline`. */
export interface WakeSources {
  powerMonitor: { on(event: 'resume' | 'unlock-screen', listener: () => void): unknown };
  isOnline: () => boolean;
}

/**
 * Calls `wake` when the machine resumes from sleep or its network comes back, so endpoints
 * reconnect at once instead of after their backoff or next heartbeat. Electron has no "online"
 * event in the main process, so the network is polled (cheap: it reads a flag).
 */
export function watchWake(sources: WakeSources, wake: () => void, pollMs = 5000): () => void {
  sources.powerMonitor.on('resume', wake);
  sources.powerMonitor.on('unlock-screen', wake);
  let online = sources.isOnline();
  const timer = setInterval(() => {
    const now = sources.isOnline();
    if (now && !online) wake();
    online = now;
  }, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
