import type { cliImportEn } from './cli-import-en';

/** import 和 init 对其他应用配置的说明（预览、导入结果），并入 zh-CN.ts。 */
export const cliImportZhCN: Record<keyof typeof cliImportEn, string> = {
  'cli.preview.codeNote': '能在服务器启动前运行别的代码',
  'cli.preview.codeWarning': '  警告：服务器“{name}”设置了 {vars}，它能在服务器启动前运行别的代码；请检查上面的值',
  'cli.preview.setsCode': '服务器“{name}”设置了 {vars}',
  'cli.init.codeEnvShown': '  {label} 的服务器“{name}”设置了 {vars}，它能在服务器启动前运行别的代码：',
  'cli.preview.setsCodeOf': '{label} 的服务器“{name}”设置了 {vars}',
  'cli.preview.codeRefused':
    '什么也没有写入：{which}，它能在服务器启动前运行别的代码。如果你信任上面显示的值，请加上 --allow-code-env 再运行一次。',
  'cli.preview.ownSecret':
    '    {name} 是小智托盘自己的密钥（或含有它）：永远不会从环境变量中取用；只有这个服务器确实需要时，才用 --input {id}=… 给出一个值',
  'cli.preview.inEnvironment': '    当前环境中已设置（{value}）：--use-env {name} 会把它交给该服务；或用 --input {id}=… 给出另一个值',
  'cli.preview.toolSettings': '  {count} 项工具设置',
  'cli.import.added': '  新增：{names}',
  'cli.import.replacedNames': '  替换：{names}',
  'cli.import.endpointNames': '  接入点：{names}',
  'cli.import.skippedNames': '  跳过：{names}',
  'cli.import.nameList': '{first}、{next}',
  'cli.import.clauseList': '{first}；{next}',
  'cli.config.warningIn': '{file}：{warning}',
  'cli.init.skippedNeeds': '警告：跳过了 {label} 的服务器“{name}”：它需要 {needs}（请用 {hint} 给出）',
  'cli.init.give': '--input {id}=VALUE',
  'cli.init.giveOrUseEnv': '--input {id}=VALUE，或 --use-env {name}',
  'cli.init.fromApp': '{label}：',
  'cli.init.addedNames': '（{names}）',
};
