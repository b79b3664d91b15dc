import { type MirrorUrls, OFFICIAL_SOURCES } from '../../../shared/mirrors';
import { own } from '../../../shared/own';
import { RUNTIME_VERSIONS, type RuntimeName } from '../../../shared/runtime-need';
import { pinKey } from './runtime-pins';

export { RUNTIME_VERSIONS };

interface SourceCommon {
  runtime: RuntimeName;
  version: string;
  /** The file fetched, by its name at the source. */
  archive: string;
  /** Its entry in the pins (its SHA-256 and size). */
  pinKey: string;
  /** The folder it is unpacked to in the store (one per runtime, version, OS and CPU, whatever the source). */
  folder: string;
  /** Where its programs are, inside that folder ('' for the folder itself). */
  binDir: string;
  /** The program that proves the unpack whole. */
  program: string;
}

/** Where one runtime's release for this OS and CPU is, and how it is laid out. */
export type RuntimeSource = SourceCommon &
  (
    | {
        /** A release archive (.tar.xz, .tar.gz, .zip) at a URL, unpacked whole by the system's tar. */
        format: 'archive';
        url: string;
      }
    | {
        /** uv's wheel, listed on the project page of a PyPI "simple" index; only its programs are taken. */
        format: 'wheel';
        index: string;
        /** The wheel's members taken, each with the name it gets in the folder. */
        members: [member: string, file: string][];
      }
  );

const NODE_OS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'win' };
const NODE_ARCH: Partial<Record<string, string>> = { x64: 'x64', arm64: 'arm64' };
const UV_TARGET: Partial<Record<string, string>> = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};
/** uv's wheel tags (PyPI) for the same OS and CPU: the file name after `uv-<version>-py3-none-`. */
const UV_WHEEL_TAG: Partial<Record<string, string>> = {
  'linux-x64': 'manylinux_2_17_x86_64.manylinux2014_x86_64',
  'linux-arm64': 'manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64',
  'darwin-x64': 'macosx_10_12_x86_64',
  'darwin-arm64': 'macosx_11_0_arm64',
  'win32-x64': 'win_amd64',
  'win32-arm64': 'win_arm64',
};

const withSlash = (base: string) => (base.endsWith('/') ? base : `${base}/`);

/**
 * The release of `runtime` for this OS and CPU, from the chosen sources (or the official ones);
 * undefined where there is none. uv comes as its wheel from `uvIndex` when one is set.
 */
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
    return {
      runtime,
      version,
      archive,
      pinKey: pinKey(runtime, version, archive),
      format: 'archive',
      url: `${withSlash(urls.nodeDist ?? OFFICIAL_SOURCES.nodeDist)}v${version}/${archive}`,
      folder: name,
      binDir: windows ? '' : 'bin',
      program: windows ? 'node.exe' : 'node',
    };
  }
  const target = own(UV_TARGET, `${platform}-${arch}`);
  const tag = own(UV_WHEEL_TAG, `${platform}-${arch}`);
  if (!target || !tag) return undefined;
  const program = windows ? 'uv.exe' : 'uv';
  const common = { runtime, version, folder: `uv-${version}-${target}`, binDir: '', program };
  if (urls.uvIndex) {
    const archive = `uv-${version}-py3-none-${tag}.whl`;
    // The wheel spec: files under `<name>-<version>.data/scripts/` go to the scripts folder.
    const scripts = `uv-${version}.data/scripts/`;
    const programs = windows ? ['uv.exe', 'uvx.exe'] : ['uv', 'uvx'];
    return {
      ...common,
      archive,
      pinKey: pinKey(runtime, version, archive),
      format: 'wheel',
      index: urls.uvIndex,
      members: programs.map((file): [string, string] => [`${scripts}${file}`, file]),
    };
  }
  const archive = `uv-${target}.${windows ? 'zip' : 'tar.gz'}`;
  return {
    ...common,
    archive,
    pinKey: pinKey(runtime, version, archive),
    format: 'archive',
    url: `${withSlash(urls.uvDownload ?? OFFICIAL_SOURCES.uvDownload)}${version}/${archive}`,
  };
}
