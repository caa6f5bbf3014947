import { useAtomValue } from 'jotai';
import { Spin } from 'antd';
import { Messages, readingFilesAtom } from '@app/shared';

/** Full-screen 正在读取文件/文件夹 while picked or dropped files are read. */
export function ReadingOverlay() {
  const reading = useAtomValue(readingFilesAtom);
  return <Spin fullscreen spinning={reading} description={Messages.readingFiles} />;
}
