import type { logWordsEn } from './log-words-en';

/** 应用自己的日志行（窗口和命令行按各自的语言显示），并入 zh-CN.ts。 */
export const logWordsZhCN: Record<keyof typeof logWordsEn, string> = {
  'problem.log.connectionTest': '连接测试（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.unreachable': '连接测试：连不上（用时 {seconds} 秒）。{cause}',
  'problem.log.connectionTest.reason.refused': '连接测试：连上了，但令牌没有被接受（用时 {seconds} 秒）。{cause}',
  'problem.log.connectionTest.reason.listed': '连接测试：正常，小智读到了你的 {count} 个工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.listedRelay': '连接测试：正常，小智经自建服务器读到了你的 {count} 个工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.deviceTalks': '连接测试：已连上。自建服务器要等设备开始说话时才读取工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.notListed': '连接测试：已连上，但小智没有读取工具（用时 {seconds} 秒）。',
  'problem.log.connectionTest.reason.notListedBecause': '连接测试：已连上，但小智没有读取工具（用时 {seconds} 秒）。{cause}',
  'problem.log.imported': '已导入：新增 {added} 个服务，替换 {replaced} 个，新增 {endpoints} 个接入点，跳过 {skipped} 个',
  'import.doneAdded': '新增：{names}。',
  'import.doneSkipped': '跳过：{names}。',
  'problem.log.stopped': '已停止',
  'problem.log.registryUnreadable': '目录：暂时读不到在线目录，先用应用自带的服务列表。{cause}',
  'problem.log.registryUnreadable.reason.cached': '目录：暂时读不到在线目录，先用上次读到的和应用自带的服务列表。{cause}',
  'problem.log.stdoutNotJson': '在标准输出上打印了不是 JSON 的内容（已跳过；日志应打印到标准错误）：{error}',
  'problem.log.closedAfter': '连接 {seconds} 秒后被关闭：{cause}',
  'problem.cli.started': 'xiaozhi-tray {version}（进程号 {pid}），配置文件 {file}（{format} 格式）',
  'problem.cli.runtimeMissing':
    '服务“{server}”：命令“{command}”需要 {runtime}，但这里的 PATH 上找不到它。用 --fetch-runtimes 启动，应用会按配置中的下载源自己下载；也可以自己安装：{install}',
  // 官方下载源时给中文读者国内镜像的安装命令（与目录卡片一致；GitHub 和 astral.sh 在中国大陆常常打不开）。
  'problem.cli.runtimeMissing.reason.official':
    '服务“{server}”：命令“{command}”需要 {runtime}，但这里的 PATH 上找不到它。用 --fetch-runtimes 启动，应用会自己下载（在中国大陆请先选用中国大陆镜像：在配置中加入 "mirrors": { "preset": "china" }，或在网页界面的“设置 → 下载源”中选择）；也可以自己从国内镜像安装：{installChina}',
  'problem.cli.readableByOthers.reason.read':
    '{file} 中有令牌或密钥，而这台电脑的其他用户能读取它（权限 {mode}）：请运行 chmod 600 {quoted}，只让你自己能读写',
  'problem.cli.readableByOthers.reason.change':
    '{file} 中有令牌或密钥，而这台电脑的其他用户能修改它（权限 {mode}）：请运行 chmod 600 {quoted}，只让你自己能读写',
  'problem.cli.readableByOthers': '{file} 中有令牌或密钥，其他用户能读取或修改它（权限 {mode}）：请运行 chmod 600 {quoted}',
  // t-stale9
  'problem.log.connectionTest.reason.listedNone': '连接测试：正常，小智读到了工具列表，但里面还没有你的工具（用时 {seconds} 秒）。',
  // t-words9：应用生成确认口令时的日志行。
  'problem.log.pinMade':
    '“先问我”现在要你用语音说出确认口令（或在窗口中点“允许”），小智不会再拿到能自己确认的代码。已为你生成一个口令：在“设置”中可以查看或修改。',
  'problem.log.pinMade.reason.configFile':
    '“先问我”现在要你用语音说出确认口令（或在窗口中点“允许”），小智不会再拿到能自己确认的代码。已为你生成一个口令：写在配置文件里（confirmation.pin），可以在那里修改。',
  'problem.log.update.upToDate': '已是最新版本（{version}）',
  'problem.log.update.byHand': '有新版本 {version}：这个版本需要你自己下载安装',
  'problem.log.update.downloading': '正在下载新版本 {version}',
  'problem.log.update.downloaded': '新版本 {version} 已下载，重启后安装',
  'problem.log.update.restarting': '正在重启以安装新版本 {version}',
  'problem.log.signedIn': '已登录服务“{server}”',
  'problem.log.callTimedOut': '调用 {tool}（服务“{server}”）没有在 {seconds} 秒内完成，已通知服务取消它',
  'problem.log.callFailed': '调用 {tool} 没有成功：{detail}',
};
