export function startBearerRelay(target: string, token: string): Promise<{ url: string; close(): Promise<void> }>;
