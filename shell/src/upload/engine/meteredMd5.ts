// For the engine's tests: an MD5 engine that counts (and may watch) the bytes fed to it, made
// the engine of this context so that every hash made here goes through it.
import { chooseMd5Engine, resetMd5Choice, sparkMd5Engine, type Md5Engine } from './md5';

export interface Md5Meter {
  engine: Md5Engine;
  /** bytes fed so far */
  bytes: number;
  /** called with each buffer fed */
  onUpdate: ((bytes: Uint8Array) => void) | null;
}

/** Wraps `inner` (spark-md5 unless told) and makes it this context's engine until the next reset. */
export function meterMd5(inner: Md5Engine = sparkMd5Engine): Md5Meter {
  const meter: Md5Meter = {
    bytes: 0,
    onUpdate: null,
    engine: {
      name: inner.name,
      async start() {
        const running = await inner.start();
        return {
          update(bytes) {
            meter.bytes += bytes.byteLength;
            meter.onUpdate?.(bytes);
            running.update(bytes);
          },
          hex: () => running.hex(),
        };
      },
    },
  };
  resetMd5Choice();
  void chooseMd5Engine(async () => meter.engine);
  return meter;
}
