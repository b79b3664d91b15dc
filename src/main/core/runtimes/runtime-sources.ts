import { OFFICIAL_SOURCES, type MirrorUrls } from '../../../shared/mirrors';
import type { RuntimeName } from '../../../shared/runtime-need';
import { own } from '../../../shared/own';

/** The versions the app fetches: pinned, so every machine runs what was tested. */
export const RUNTIME_VERSIONS: Record<RuntimeName, string> = { node: '22.12.0', uv: '0.10.10' };

/** Where one runtime's release for this OS and CPU is, and how it is laid out. */
export interface RuntimeSource {
  runtime: RuntimeName;
  version: string;
  /** The archive's file name, as its checksum file names it. */
  archive: string;
  url: string;
  /** The release's checksum file, from the same source: SHASUMS256.txt (Node.js), `<archive>.sha256` (uv). */
  checksumUrl: string;
  /** The folder it is unpacked to in the store (one per runtime, version, OS and CPU). */
  folder: string;
  /** Where its programs are, inside that folder ('' for the folder itself). */
  binDir: string;
  /** The program that proves the unpack whole. */
  program: string;
}

const NODE_OS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'win' };
const NODE_ARCH: Partial<Record<string, string>> = { x64: 'x64', arm64: 'arm64' };
const UV_TARGET: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

/** The release of `runtime` for this OS and CPU, from the chosen mirror (or the official site); undefined where there is none. */
export function runtimeSource(
  runtime: RuntimeName,
  urls: MirrorUrls,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): RuntimeSource | undefined {
  const version = RUNTIME_VERSIONS[runtime];
  const windows = platform === 'win32';
  if (runtime === 'node') {
    const os = NODE_OS[platform];
    const cpu = own(NODE_ARCH, arch);
    if (!os || !cpu) return undefined;
    const name = `node-v${version}-${os}-${cpu}`;
    // The official site's formats: .tar.xz is the smaller on Linux; macOS tar reads .tar.gz natively.
    const archive = `${name}.${windows ? 'zip' : platform === 'darwin' ? 'tar.gz' : 'tar.xz'}`;
    const base = `${withSlash(urls.nodeDist ?? OFFICIAL_SOURCES.nodeDist)}v${version}/`;
    return {
      runtime,
      version,
      archive,
      url: base + archive,
      checksumUrl: `${base}SHASUMS256.txt`,
      folder: name,
      binDir: windows ? '' : 'bin',
      program: windows ? 'node.exe' : 'node',
    };
  }
  const target = own(UV_TARGET, `${platform}-${arch}`);
  if (!target) return undefined;
  const archive = `uv-${target}.${windows ? 'zip' : 'tar.gz'}`;
  const url = `${withSlash(urls.uvDownload ?? OFFICIAL_SOURCES.uvDownload)}${version}/${archive}`;
  return {
    runtime,
    version,
    archive,
    url,
    checksumUrl: `${url}.sha256`,
    folder: `uv-${version}-${target}`,
    binDir: '',
    program: windows ? 'uv.exe' : 'uv',
  };
}

/** The SHA-256 a checksum file gives for `archive` (lines of `<hex>  [*]<name>`), or undefined. */
export function checksumFor(text: string, archive: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64})\s+\*?(.+?)\s*$/.exec(line.trim());
    if (match && (match[2] === archive || match[2]!.endsWith(`/${archive}`))) return match[1]!.toLowerCase();
  }
  return undefined;
}
