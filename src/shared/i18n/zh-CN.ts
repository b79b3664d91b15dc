import type { en } from './en';

/** 简体中文界面文字。 */
export const zhCN: Record<keyof typeof en, string> = {
  'app.name': '小智托盘',

  'tray.tooltip': '{app} · {connected}/{total} 个接入点已连接 · {servers} 个服务 · {tools} 个工具',
  'tray.tooltip.stopped': '{app} · 已停止',
  'tray.tooltip.noEndpoint': '{app} · 尚未添加接入点',
  'tray.endpoint.connected': '{name}：已连接',
  'tray.endpoint.connecting': '{name}：正在连接…',
  'tray.endpoint.waiting': '{name}：{seconds} 秒后重试',
  'tray.endpoint.disconnected': '{name}：未连接',
  'tray.endpoint.disabled': '{name}：已关闭',
  'tray.noEndpoints': '尚未添加接入点',
  'tray.serversFailed': '{count} 个服务启动失败',
  'tray.start': '启动',
  'tray.stop': '停止',
  'tray.open': '打开小智托盘',
  'tray.launchAtLogin': '开机自动启动',
  'tray.openLogs': '打开日志文件夹',
  'tray.quit': '退出',
};
