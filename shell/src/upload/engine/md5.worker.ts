// The hashing Web Worker: a whole file in (progress and its MD5 out), or chunks by id in
// (each chunk's MD5 out under the same id); the protocol is in md5.ts.
import { handleHashRequest, type HashMessage, type HashRequest } from './md5';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
  postMessage(message: HashMessage): void;
};

scope.onmessage = (event) => {
  void handleHashRequest(event.data, (message) => scope.postMessage(message));
};
