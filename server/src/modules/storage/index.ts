// The object store of the configuration: the local folder `$DATA_DIR` unless S3_BUCKET is set.
import type { AppConfig } from '../../config';
import { LocalStore } from './local';
import { S3Store } from './s3';
import type { ObjectStore } from './store';

export { LocalStore } from './local';
export { S3Store, StoreError, describeStoreError } from './s3';
export { fileSource, objectSource, type ContentSource } from './source';
export { ObjectMissing, type ByteRange, type ObjectStore, type StoredObject } from './store';

export function createObjectStore(config: Pick<AppConfig, 'dataDir' | 'storage'>): ObjectStore {
  const s = config.storage;
  if (s.kind === 'local') return new LocalStore(config.dataDir);
  return new S3Store(s);
}
