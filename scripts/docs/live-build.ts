export async function buildLive(_out: string): Promise<void> {}
