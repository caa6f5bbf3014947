// The hashing Web Worker: one request { file, chunkSize, sliceSize } in, progress and the
// hashes out (protocol in md5.ts).
import { handleHashRequest, type HashMessage, type HashRequest } from './md5';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
  postMessage(message: HashMessage): void;
};

scope.onmessage = (event) => {
  void handleHashRequest(event.data, (message) => scope.postMessage(message));
};
