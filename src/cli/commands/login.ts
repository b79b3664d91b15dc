import { spawn } from 'node:child_process';
import { isMcpServer, type RemoteServerSettings } from '../../shared/settings';
import { appStateDir } from '../../main/core/local-server/state-file';
import { followByFetch, opensByFetch } from '../../main/core/oauth/open-authorization';
import { signInProblem, startSignIn } from '../../main/core/oauth/sign-in';
import { FileVault } from '../../main/core/oauth/token-vault';
import { englishText } from '../../main/core/servers/server-problems';
import { stringOption, UsageError } from '../args';
import { CONFIG_OPTION, type Command } from '../command';
import { configFileOr, loadOrExplain } from '../config-file';
import { failureText } from '../cli-words';

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
