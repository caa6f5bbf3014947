// An in-memory storage area for the upload engine's task store in tests: what survives a
// "reload" is what two engines built on the same storage share.
import { createStorage } from '@app/shared';

export function memoryStorage() {
  const map = new Map<string, string>();
  const area = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  } as unknown as Storage;
  return createStorage(() => area);
}
