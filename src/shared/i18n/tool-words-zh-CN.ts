/**
 * Words common in MCP tool names, in Chinese: a name made only of them is said in Chinese ("write_file" →
 * 写入文件), verb then object as in English. One word not here and the name is said as it is: a guess at
 * a word we do not know would say something the tool does not do.
 */
const WORDS = new Map<string, string>([
  ['add', '添加'],
  ['allowed', '允许访问的'],
  ['cancel', '取消'],
  ['convert', '转换'],
  ['create', '创建'],
  ['current', '当前'],
  ['delete', '删除'],
  ['directories', '文件夹'],
  ['directory', '文件夹'],
  ['edit', '编辑'],
  ['entities', '实体'],
  ['entity', '实体'],
  ['file', '文件'],
  ['files', '文件'],
  ['get', '获取'],
  ['graph', '图谱'],
  ['info', '信息'],
  ['list', '列出'],
  ['move', '移动'],
  ['multiple', '多个'],
  ['nodes', '节点'],
  ['observations', '观察记录'],
  ['open', '打开'],
  ['read', '读取'],
  ['relations', '关系'],
  ['remove', '移除'],
  ['search', '搜索'],
  ['send', '发送'],
  ['set', '设置'],
  ['text', '文字'],
  ['time', '时间'],
  ['tree', '结构'],
  ['update', '更新'],
  ['weather', '天气'],
  ['write', '写入'],
]);

/** A tool name's words (already split and lower-cased) in Chinese, or undefined when one of them is unknown. */
export function toolWordsZh(words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  const said = words.map((word) => WORDS.get(word));
  return said.every((word) => word !== undefined) ? said.join('') : undefined;
}
