import type { MessageKey } from './i18n/translate';
import { RUNTIME_LABEL } from './runtime-need';
import { runtimeAwaited, stepAwaited } from './sign-in-status';
import type { ServerStatus } from './status';
import type { SummaryTone } from './status-summary';

/** A server's state as a person reads it: one word, and its colour. */
export interface StateWord {
  key: MessageKey;
  params: Record<string, string>;
  tone: SummaryTone;
}

type Shown = Pick<ServerStatus, 'transport' | 'state' | 'lastErrorCause' | 'installing' | 'runtime'>;

/**
 * The one name of a server's state: its card's badge, and the word the sidebar, the overview and the tray
 * count it under. A walkthrough saw one server that failed and tried again named three ways
 * at once (停止了, 已失败, 重启中): trying again by itself is said calmly, 失败 only once it gave up.
 */
export function serverStateWord(status: Shown): StateWord {
  const awaited = stepAwaited(status);
  if (status.runtime?.fetching)
    return { key: 'state.fetchingRuntime', params: { runtime: RUNTIME_LABEL[status.runtime.name] }, tone: 'busy' };
  if (awaited === 'runtime' && !status.installing)
    return { key: 'state.needsRuntime', params: { runtime: runtimeAwaited(status) ?? '' }, tone: 'warn' };
  // A retry that installs again (the previous attempt could not download): a new attempt, not a first run.
  if (status.installing)
    return { key: status.state === 'restarting' ? 'state.retryInstalling' : 'state.installing', params: {}, tone: 'busy' };
  if (awaited === 'signIn') return { key: 'state.needsSignIn', params: {}, tone: 'warn' };
  return { key: STATE_KEY[status.state], params: {}, tone: STATE_TONE[status.state] };
}

const STATE_KEY = {
  running: 'state.running',
  starting: 'state.starting',
  restarting: 'state.restarting',
  failed: 'state.failed',
  stopped: 'state.stopped',
} as const satisfies Record<ServerStatus['state'], MessageKey>;

/** Trying again by itself is news, not an alarm: the calm colour of something under way. */
const STATE_TONE = {
  running: 'ok',
  starting: 'busy',
  restarting: 'busy',
  failed: 'bad',
  stopped: 'off',
} as const satisfies Record<ServerStatus['state'], SummaryTone>;
