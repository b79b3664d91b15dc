/** ModelScope-hosted MCP servers want the user's ModelScope token as a Bearer header. */
export function isModelScopeUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return /(^|\.)modelscope\.(cn|net)$/.test(host);
}

export function remoteHeaders(
  url: URL,
  headers: Record<string, string>,
  modelscopeApiKey: string | undefined = process.env.MODELSCOPE_API_TOKEN,
): Record<string, string> {
  const out = { ...headers };
  const hasAuth = Object.keys(out).some((key) => key.toLowerCase() === 'authorization');
  if (!hasAuth && modelscopeApiKey && isModelScopeUrl(url)) out.Authorization = `Bearer ${modelscopeApiKey}`;
  return out;
}
