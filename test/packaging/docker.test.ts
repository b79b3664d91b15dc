import fs from 'node:fs';
import path from 'node:path';

import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * No Docker engine runs here: the image is built and started by .github/workflows/docker.yml.
 * These tests hold the files to what the README promises, so a slip shows before CI.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Instructions of a Dockerfile, continuation lines joined, comments dropped, grouped by stage. */
function stages(text: string): { from: string; lines: string[] }[] {
  const joined = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const out: { from: string; lines: string[] }[] = [];
  for (const line of joined) {
    if (/^FROM\s/i.test(line)) out.push({ from: line, lines: [] });
    else out[out.length - 1]?.lines.push(line);
  }
  return out;
}

describe('the Docker image', () => {
  const dockerfile = read('Dockerfile');
  const all = stages(dockerfile);
  const final = all[all.length - 1] as { from: string; lines: string[] };
  const args = Object.fromEntries([...dockerfile.matchAll(/^ARG (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));

  it('runs on Node 22 slim, with uv, uvx and Python for uvx servers, and tini in front', () => {
    expect(args.NODE_IMAGE).toMatch(/^node:22-[a-z]+-slim$/);
    expect(final.from).toBe('FROM ${NODE_IMAGE}');
    expect(final.lines.join('\n')).toMatch(/apt-get install .*\bpython3\b.*\btini\b/);
    expect(final.lines).toContain('COPY --from=uv /uv /uvx /usr/local/bin/');
    expect(all.find((s) => / AS uv$/.test(s.from))?.from).toBe('FROM ghcr.io/astral-sh/uv:${UV_VERSION} AS uv');
    expect(final.lines).toContain('ENTRYPOINT ["tini", "--", "xiaozhi-tray"]');
  });

  it('installs the package scripts/pack.mjs makes (the one the pack-install test runs), not the repository', () => {
    const build = all.find((s) => / AS build$/.test(s.from));
    expect(build?.lines.join('\n')).toContain('RUN npm ci');
    expect(build?.lines.join('\n')).toContain('node scripts/pack.mjs');
    expect(final.lines.join('\n')).toMatch(/npm install --global .*\/tmp\/xiaozhi-tray\.tgz/);
    expect(final.lines.some((l) => /^COPY (?!--from)/.test(l))).toBe(false);
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'out', '.git']) expect(ignored).toContain(entry);
  });

  it('keeps config and caches in the /data volume, runs as a normal user, serves with the config there', () => {
    expect(final.lines).toEqual(
      expect.arrayContaining([
        'ENV HOME=/data',
        'USER node',
        'WORKDIR /data',
        'VOLUME ["/data"]',
        'CMD ["run", "--config", "/data/xiaozhi-tray.json"]',
      ]),
    );
    expect(final.lines.join('\n')).toContain('chown node:node /data');
  });

  it('compose: the volume, a restart policy, and the web UI only when uncommented, on loopback', () => {
    const compose = yaml.load(read('compose.yaml')) as {
      services: Record<string, { volumes: string[]; restart: string; ports?: string[]; command?: string[] }>;
      volumes: Record<string, unknown>;
    };
    const service = compose.services['xiaozhi-tray'];
    expect(service?.volumes).toEqual(['xiaozhi-tray-data:/data']);
    expect(service?.restart).toBe('unless-stopped');
    expect(service?.ports).toBeUndefined();
    expect(service?.command).toBeUndefined();
    expect(compose.volumes).toHaveProperty('xiaozhi-tray-data');
    // The commented example binds the host side to 127.0.0.1.
    expect(read('compose.yaml')).toContain('#   - "127.0.0.1:8080:8080"');
  });

  it('has a workflow that builds the image, smoke-tests it and pushes amd64 and arm64 for a version tag', () => {
    const workflow = yaml.load(read('.github/workflows/docker.yml')) as {
      on: { push: { tags: string[] } };
      jobs: { image: { steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] } };
    };
    expect(workflow.on.push.tags).toEqual(['v*']);
    const steps = workflow.jobs.image.steps;
    const builds = steps.filter((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(builds.map((s) => s.with?.file)).toEqual(['Dockerfile', 'Dockerfile']);
    expect(builds[1]?.with?.platforms).toBe('linux/amd64,linux/arm64');
    expect(builds[1]?.with?.push).toBe("${{ startsWith(github.ref, 'refs/tags/v') }}");
    const smoke = steps.find((s) => s.run?.includes('docker stop'))?.run ?? '';
    expect(smoke).toContain('--version');
    expect(smoke).toContain('test "$(docker inspect -f \'{{.State.ExitCode}}\' xt)" = 0');
  });
});
