/** A remote module (manifest, entry or exposed module) could not be loaded. */
export class RemoteLoadError extends Error {
  readonly remoteId: string;
  constructor(remoteId: string, reason?: string) {
    super(`模块 ${remoteId} 加载失败${reason ? `：${reason}` : ''}`);
    this.name = 'RemoteLoadError';
    this.remoteId = remoteId;
  }
}
