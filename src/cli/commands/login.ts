import { spawn } from 'node:child_process';
import os from 'node:os';

import { stringOption, UsageError } from '../../main/core/command-line/args';
import { appStateDir } from '../../main/core/local-server/state-file';
import { followByFetch, opensByFetch } from '../../main/core/oauth/open-authorization';
import { signInProblem, startSignIn } from '../../main/core/oauth/sign-in';
import { FileVault } from '../../main/core/oauth/token-vault';
import { englishText } from '../../main/core/problems/server-problems';
import { isMcpServer, type RemoteServerSettings } from '../../shared/settings';
import { failureText } from '../cli-words';
import { type Command, CONFIG_OPTION } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';

/**
 * `xiaozhi-tray login SERVER`: the sign-in of a remote server, run here (the browser comes back to
 * this process), kept where the running app reads it; the app notices the new tokens and connects.
 */
export const loginCommand: Command = {
  name: 'login',
  summary: 'cli.login.summary',
  usage: ['login SERVER --config FILE'],
  options: [CONFIG_OPTION],
  details: 'cli.login.details',
  async run(args, ctx) {
    const name = args.positionals[0];
    const file = configFileOr(stringOption(args, 'config'), ctx);
    if (!name) throw UsageError.of('cli.login.needsServer');
    const loaded = loadOrExplain(ctx, file, 'login');
    if (!loaded) return 1;
    const remote = loaded.settings.servers.filter((s): s is RemoteServerSettings => isMcpServer(s) && s.transport !== 'stdio');
    const settings = remote.find((s) => s.name === name);
    if (!settings) {
      const any = loaded.settings.servers.some((s) => s.name === name);
      ctx.err(
        any
          ? ctx.t('cli.login.notRemote', { server: name })
          : ctx.t('cli.login.unknownServer', { server: name, names: remote.map((s) => s.name).join(', ') || '-' }),
      );
      return 1;
    }
    const failed = (error: unknown) => {
      const why = signInProblem(error);
      ctx.err(ctx.t('cli.login.failed', { server: name, reason: failureText(ctx, why, englishText(why)) }));
      return 1;
    };
    let signIn;
    try {
      const vault = new FileVault(appStateDir({ platform: ctx.platform, env: ctx.env }));
      signIn = await startSignIn({ settings, vault, env: ctx.env, modelscopeApiKey: loaded.settings.modelscope.apiKey });
    } catch (error) {
      return failed(error);
    }
    ctx.out(ctx.t('cli.login.open', { server: name }));
    ctx.out(signIn.url);
    if (opensByFetch(ctx.env)) void followByFetch(signIn.url);
    else openWithBrowser(ctx.env.BROWSER, signIn.url);
    // A headless box (a Raspberry Pi) is signed in from another computer's browser: it must reach our loopback port.
    const port = redirectPort(signIn.url);
    if (port) ctx.err(ctx.t('cli.login.otherComputer', { port, user: os.userInfo().username, host: os.hostname() }));
    ctx.err(ctx.t('cli.login.waiting'));
    try {
      await signIn.done;
    } catch (error) {
      return failed(error);
    }
    ctx.out(ctx.t('cli.login.done', { server: name }));
    return 0;
  },
};

/** The loopback port the sign-in page sends the browser back to (its `redirect_uri`). */
function redirectPort(address: string): string | undefined {
  try {
    const back = new URL(new URL(address).searchParams.get('redirect_uri') ?? '');
    return back.hostname === '127.0.0.1' || back.hostname === 'localhost' ? back.port || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** `$BROWSER` as Unix tools read it: commands separated by ":", the first used; "%s" stands for the URL (else it is added). */
function openWithBrowser(browser: string | undefined, url: string): void {
  const first = browser?.split(':')[0]?.trim();
  if (!first) return;
  const words = first.split(/\s+/);
  const args = words.slice(1).map((word) => word.replace('%s', url));
  if (!first.includes('%s')) args.push(url);
  try {
    const child = spawn(words[0] as string, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The address is printed: the user opens it.
  }
}
