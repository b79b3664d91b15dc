import { describe, expect, it } from 'vitest';

import { valueLabel } from '../../src/shared/value-label';

describe('a registry value is named for people, in each language', () => {
  it('turns variable and argument names into words', () => {
    expect(valueLabel('WEATHER_API_KEY')).toEqual({ en: 'Weather API key', zh: 'Weather API 密钥' });
    expect(valueLabel('QWEATHER_API_HOST')).toEqual({ en: 'Qweather API host', zh: 'Qweather API 主机地址' });
    expect(valueLabel('notes_dir')).toEqual({ en: 'Notes folder', zh: 'Notes 文件夹' });
    expect(valueLabel('clientSecret')).toEqual({ en: 'Client secret', zh: '客户端密钥' });
    expect(valueLabel('ACCESS_TOKEN')).toEqual({ en: 'Access token', zh: '访问令牌' });
    expect(valueLabel('Authorization')).toEqual({ en: 'Authorization', zh: '授权' });
  });
});
