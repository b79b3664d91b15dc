import { redactText } from '../../main/core/logs/redact';
import { secretValues } from '../../main/core/secrets/bridge-secrets';
import { type ServerSettings, serverTarget } from '../../shared/settings';
import type { ServerStatus } from '../../shared/status';
import { failureText } from '../cli-words';
import type { Command } from '../command';
import { displayWidth, padDisplay } from '../display-width';
import { LOOK_OPTIONS, lookAtServers } from '../headless-bridge';
import { stateWord } from '../print-catalog';

/** Columns lined up as a terminal shows them (a Chinese name takes two columns a character). */
function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => displayWidth(r[i] ?? ''))));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : padDisplay(cell, widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export const serversCommand: Command = {
  name: 'servers',
  summary: 'cli.servers.summary',
  usage: ['servers --config FILE [--json] [--wait SECONDS]'],
  options: LOOK_OPTIONS,
  details: 'cli.servers.details',
  run: (args, ctx) =>
    lookAtServers(args, ctx, 'servers', async ({ bridge }, loaded) => {
      const secrets = secretValues(loaded.settings);
      const statuses = new Map(bridge.state().servers.map((s) => [s.name, s]));
      const clean = (text: string) => redactText(text, secrets);
      const describe = (server: ServerSettings, status: ServerStatus | undefined) => ({
        name: server.name,
        transport: server.transport,
        enabled: server.enabled,
        state: server.enabled ? (status?.state ?? 'stopped') : 'disabled',
        tools: status?.toolCount ?? 0,
        target: clean(serverTarget(server)),
        ...(status?.pid !== undefined ? { pid: status.pid } : {}),
        ...(status?.lastError ? { error: clean(status.lastError), cause: status.lastErrorCause } : {}),
        ...(status?.stderrTail.length && status.state !== 'running' ? { stderr: status.stderrTail.slice(-5).map(clean) } : {}),
      });
      const rows = loaded.settings.servers.map((server) => describe(server, statuses.get(server.name)));
      if (args.options.json === true) ctx.out(JSON.stringify({ servers: rows.map(({ cause: _, ...row }) => row) }, null, 2));
      else if (rows.length === 0) ctx.out(ctx.t('cli.servers.none'));
      else {
        const { t } = ctx;
        const lines = table([
          [
            t('cli.servers.colName'),
            t('cli.servers.colTransport'),
            t('cli.servers.colState'),
            t('cli.servers.colTools'),
            t('cli.servers.colRuns'),
          ],
          ...rows.map((r) => [r.name, r.transport, stateWord(t, r.state), r.state === 'running' ? String(r.tools) : '-', r.target]),
        ]);
        for (const [i, line] of lines.entries()) {
          ctx.out(line);
          const row = rows[i - 1];
          if (row?.error) ctx.out(`    ${t('cli.servers.error', { error: failureText(ctx, row.cause, row.error) })}`);
          for (const stderr of row?.stderr ?? []) ctx.out(`    stderr: ${stderr}`);
        }
      }
      return rows.some((r) => r.enabled && r.state !== 'running') ? 1 : 0;
    }),
};
