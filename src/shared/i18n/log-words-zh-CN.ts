import type { logWordsEn } from './log-words-en';

/** 应用自己的日志行（窗口和命令行按各自的语言显示），并入 zh-CN.ts。 */
export const logWordsZhCN: Record<keyof typeof logWordsEn, string> = {
  'problem.log.connectionTest': '连接测试（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.unreachable': '连接测试：连不上（用时 {seconds} 秒）。{cause}',
  'problem.log.connectionTest.reason.refused': '连接测试：连上了，但令牌没有被接受（用时 {seconds} 秒）。{cause}',
  'problem.log.connectionTest.reason.listed': '连接测试：正常，小智读到了 {count} 个工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.listedRelay': '连接测试：正常，小智经自建服务器读到了 {count} 个工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.deviceTalks': '连接测试：已连上。自建服务器要等设备开始说话时才读取工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.notListed': '连接测试：已连上，但小智没有读取工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.notListedBecause': '连接测试：已连上，但小智没有读取工具（用时 {seconds} 秒）。{cause}',
  'problem.log.imported': '已导入：新增 {added} 个服务，替换 {replaced} 个，新增 {endpoints} 个接入点，跳过 {skipped} 个',
  'import.doneAdded': '新增：{names}。',
  'import.doneSkipped': '跳过：{names}。',
};
