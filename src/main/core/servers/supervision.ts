/** How a server is supervised: how long it may take to start, how it is restarted, when it is given up on. */
export interface Supervision {
  /** How long `initialize` + the first `tools/list` may take. */
  startTimeoutMs: number;
  /** The same, for a first run seen downloading or installing its package (`npx`, `uvx`…). */
  installTimeoutMs: number;
  restartBaseMs: number;
  restartMaxMs: number;
  /** This many crashes within `crashWindowMs` and a stdio server stays failed. */
  maxCrashes: number;
  crashWindowMs: number;
  /** Remote servers are pinged this often; a failed ping reconnects. 0 disables. */
  healthIntervalMs: number;
  /** Grace given to a stdio server to exit after its stdin closes, before it is killed. */
  stopGraceMs: number;
  /** A remote server's response or event past this size drops its connection (memory stays bounded). */
  maxRemoteMessageBytes: number;
  /** A server announcing tool list changes is listed again at most once per this long. */
  listChangedEveryMs: number;
  /** After a logged tool list change, further announcements within this long are logged once, with their count. */
  listChangedLogWindowMs: number;
}

export const defaultSupervision: Supervision = {
  startTimeoutMs: 60_000,
  installTimeoutMs: 600_000,
  restartBaseMs: 1_000,
  restartMaxMs: 30_000,
  maxCrashes: 5,
  crashWindowMs: 60_000,
  healthIntervalMs: 30_000,
  stopGraceMs: 2_000,
  maxRemoteMessageBytes: 16 * 1024 * 1024,
  listChangedEveryMs: 1_000,
  listChangedLogWindowMs: 60_000,
};
