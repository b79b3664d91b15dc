import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { systemLocale, systemTimeZone } from '../../../../src/main/core/system/system-locale';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A localtime link to `target`, as Linux (/usr/share/zoneinfo/…) and macOS (/var/db/timezone/zoneinfo/…) keep it. */
function localtimeTo(target: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-tz-'));
  dirs.push(dir);
  const link = path.join(dir, 'localtime');
  fs.symlinkSync(target, link);
  return link;
}

describe.skipIf(process.platform === 'win32')('the system time zone', () => {
  it("is the zone /etc/localtime links to, read without Intl (whose first answer loads ICU's 8 MB)", () => {
    const intl = vi.spyOn(Intl, 'DateTimeFormat');
    expect(systemTimeZone({}, localtimeTo('/usr/share/zoneinfo/Asia/Shanghai'))).toBe('Asia/Shanghai');
    expect(systemTimeZone({}, localtimeTo('/var/db/timezone/zoneinfo/America/Argentina/Buenos_Aires'))).toBe(
      'America/Argentina/Buenos_Aires',
    );
    expect(systemTimeZone({}, localtimeTo('/usr/share/zoneinfo/Etc/GMT+8'))).toBe('Etc/GMT+8');
    expect(intl).not.toHaveBeenCalled();
  });

  it('is TZ when it names a zone, and the runtime’s when the link is a copy, absent or names none', () => {
    expect(systemTimeZone({ TZ: ':Europe/London' }, localtimeTo('/usr/share/zoneinfo/Asia/Shanghai'))).toBe('Europe/London');
    const runtime = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(systemTimeZone({}, path.join(os.tmpdir(), 'xt-no-such-localtime'))).toBe(runtime);
    expect(systemTimeZone({}, localtimeTo('/somewhere/else'))).toBe(runtime);
  });

  it("names the zone itself where the link (or TZ) goes through tzdata's posix/ or right/ copies, so Shanghai stays mainland China", () => {
    expect(systemTimeZone({}, localtimeTo('/usr/share/zoneinfo/posix/Asia/Shanghai'))).toBe('Asia/Shanghai');
    expect(systemTimeZone({}, localtimeTo('../usr/share/zoneinfo/right/Asia/Taipei'))).toBe('Asia/Taipei');
    expect(systemTimeZone({ TZ: 'posix/Asia/Hong_Kong' }, localtimeTo('/usr/share/zoneinfo/UTC'))).toBe('Asia/Hong_Kong');
  });
});

describe.skipIf(process.platform === 'win32')('the system locale', () => {
  it('is what LANG names, and en-US without Intl where LANG names none (a container’s C.UTF-8, unset): ICU would cost 8 MB idle', () => {
    const intl = vi.spyOn(Intl, 'DateTimeFormat');
    expect(systemLocale({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    for (const env of [{ LANG: 'C.UTF-8' }, { LANG: 'POSIX' }, {}]) expect(systemLocale(env)).toBe('en-US');
    expect(intl).not.toHaveBeenCalled();
  });
});
