import type { plainEn } from './plain-en';

/** 给非开发者的窗口（issue 33）：先说一句白话，数字放在“详情”里。 */
export const plainZhCN: Record<keyof typeof plainEn, string> = {
  'plain.details': '详情',
  'plain.serving.autoAll': '小智直接看到你的全部 {count} 个工具。',
  'plain.serving.autoSearch': '工具较多，小智会先搜索再调用。',
  'plain.serving.all': '无论工具有多少，小智总是直接看到你的全部 {count} 个工具。',
  'plain.serving.search': '小智先搜索你的工具，再调用需要的那个。',
  'plain.mode.auto': '自动',
  'plain.modeHint.auto': '工具不多时全部直接提供；多到小智难以处理时，改为先搜索再调用。',
  'plain.useAuto': '改为自动',
  'plain.typical': '通常用时',
  'plain.slow': '较慢时：{time}',
  'plain.slowColumn': '较慢时',
  'plain.confirmation.allowed.window': '已在窗口中允许',
  'plain.confirmation.allowed.webUi': '已在网页中允许',
  'plain.confirmation.allowed.voice': '已用语音说出 PIN 确认',
  'plain.confirmation.denied.window': '已在窗口中拒绝',
  'plain.confirmation.denied.webUi': '已在网页中拒绝',
  'plain.confirmation.denied.voice': '已用语音拒绝',
  'plain.confirmation.expired': '没有及时确认',
  'plain.confirmation.withdrawn': '已不再允许用语音确认',
  'plain.catalogue.add': '添加',
  'plain.catalogue.addNamed': '添加 {name}',
  'plain.servers.copyOf':
    '它运行的程序和“{name}”相同。添加两次后，小智会看到每个工具两遍，名字前面都加上服务名，原来用过的名字可能就找不到了。',
  'problem.log.starting': '正在启动：{servers} 个服务，{endpoints} 个接入点',
  'problem.log.toolListChanged': '工具列表有变化：现在共 {count} 个工具',
  'plain.localServer.overridden': '这次启动时用了 {options}：在下次不带这些参数启动之前，以它们为准，而不是下面保存的设置。',
  'plain.localServer.overriddenAt':
    '这次启动时用了 {options}：无论下面保存的设置是什么，现在都在 {url} 监听。下次不带这些参数启动时，才会按下面的设置。',
  'problem.log.localListening': '本机 MCP 服务正在 {url} 监听',
  'plain.cli.servers': '{count} 个服务',
  'plain.cli.noClientConfig': '警告：这台电脑上没有找到 {client} 的配置',
  'plain.cli.added': '添加了 {count} 个服务',
  'plain.cli.skipped': '，跳过 {count} 个（已经有了，或无法使用）',
};
