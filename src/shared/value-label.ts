import { own } from './own';

/**
 * A human name for a value a server asks for, from its variable, argument or input name
 * (`WEATHER_API_KEY` → "Weather API key" / "Weather API 密钥"): the catalogue's "Needs: …" and an
 * imported file's undescribed `${input:api_host}` show it. Most users read Chinese first and do not
 * read variable names.
 */
const WORDS: Record<string, { en: string; zh: string }> = {
  api: { en: 'API', zh: 'API' },
  key: { en: 'key', zh: '密钥' },
  token: { en: 'token', zh: '令牌' },
  secret: { en: 'secret', zh: '密钥' },
  password: { en: 'password', zh: '密码' },
  host: { en: 'host', zh: '主机地址' },
  url: { en: 'URL', zh: '地址' },
  endpoint: { en: 'endpoint', zh: '接入点' },
  id: { en: 'ID', zh: 'ID' },
  path: { en: 'path', zh: '路径' },
  file: { en: 'file', zh: '文件' },
  dir: { en: 'folder', zh: '文件夹' },
  directory: { en: 'folder', zh: '文件夹' },
  folder: { en: 'folder', zh: '文件夹' },
  user: { en: 'user', zh: '用户' },
  username: { en: 'user name', zh: '用户名' },
  port: { en: 'port', zh: '端口' },
  client: { en: 'client', zh: '客户端' },
  access: { en: 'access', zh: '访问' },
  account: { en: 'account', zh: '账号' },
  region: { en: 'region', zh: '区域' },
  model: { en: 'model', zh: '模型' },
  project: { en: 'project', zh: '项目' },
  base: { en: 'base', zh: '基础' },
  authorization: { en: 'authorization', zh: '授权' },
};

const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);

/** Each word in the language's form; one that is neither known nor an acronym is capitalised as a name. */
export function valueLabel(name: string): { en: string; zh: string } {
  const parts = words(name);
  if (parts.length === 0) return { en: name, zh: name };
  const en = parts.map((word, i) => {
    const known = own(WORDS, word.toLowerCase())?.en;
    const plain = known ?? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
    return i === 0 ? plain.charAt(0).toUpperCase() + plain.slice(1) : plain;
  });
  const zh = parts.map((word) => own(WORDS, word.toLowerCase())?.zh ?? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
  // Chinese words run together; a Latin word keeps a space on each side ("Weather API 密钥", the shipped style).
  const cjk = /[\u4e00-\u9fff]/;
  const zhText = zh.reduce(
    (text, word) => (text === '' ? word : cjk.test(text.slice(-1)) && cjk.test(word.charAt(0)) ? text + word : `${text} ${word}`),
    '',
  );
  return { en: en.join(' '), zh: zhText };
}
