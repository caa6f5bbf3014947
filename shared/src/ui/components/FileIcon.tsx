import type { ComponentType, CSSProperties } from 'react';
import {
  ArrowUpOutlined,
  BookFilled,
  CodeFilled,
  CustomerServiceFilled,
  FileExcelFilled,
  FileFilled,
  FileMarkdownFilled,
  FilePdfFilled,
  FilePptFilled,
  FileProtectOutlined,
  FileWordFilled,
  FileZipFilled,
  FolderFilled,
  MailFilled,
  PictureFilled,
  PlaySquareFilled,
  SaveFilled,
  WindowsFilled,
} from '@ant-design/icons';
import { extensionOf, FILE_TYPE_LABELS, fileTypeGroup, type FileTypeGroup } from './fileType';

type IconComponent = ComponentType<{ style?: CSSProperties; className?: string; 'aria-label'?: string; title?: string }>;

const ICONS: Record<FileTypeGroup, { icon: IconComponent; color: string }> = {
  folder: { icon: FolderFilled, color: '#f7c144' },
  archive: { icon: FileZipFilled, color: '#8c6a3f' },
  document: { icon: FileWordFilled, color: '#2b6de5' },
  spreadsheet: { icon: FileExcelFilled, color: '#1f9d55' },
  presentation: { icon: FilePptFilled, color: '#e5622b' },
  video: { icon: PlaySquareFilled, color: '#7a4fd6' },
  audio: { icon: CustomerServiceFilled, color: '#d6418f' },
  image: { icon: PictureFilled, color: '#13a8a8' },
  code: { icon: CodeFilled, color: '#4b5563' },
  pdf: { icon: FilePdfFilled, color: '#d93026' },
  exe: { icon: WindowsFilled, color: '#3b82f6' },
  iso: { icon: SaveFilled, color: '#6b7280' },
  eml: { icon: MailFilled, color: '#0ea5e9' },
  epub: { icon: BookFilled, color: '#a16207' },
  md: { icon: FileMarkdownFilled, color: '#374151' },
  ofd: { icon: FileProtectOutlined, color: '#c2410c' },
  default: { icon: FileFilled, color: '#9ca3af' },
};

export interface FileIconProps {
  /** The file's extension ('docx' or '.docx'); taken from `name` when absent. */
  extension?: string | null;
  /** The file name, used when no extension is given. */
  name?: string | null;
  /** A folder gets the folder icon whatever its name. */
  folder?: boolean;
  /** Icon size in pixels (spec section 9: 32). */
  size?: number;
  /** A shortcut: the target's icon with a small arrow in its lower left corner. */
  shortcut?: boolean;
  className?: string;
}

/** The file-type icon of a file or folder. */
export function FileIcon({ extension, name, folder = false, size = 32, shortcut = false, className }: FileIconProps) {
  const group = fileTypeGroup(extension || extensionOf(name), folder);
  const { icon: Icon, color } = ICONS[group];
  const badge = Math.max(8, Math.round(size * 0.45));
  return (
    <span
      className={className}
      data-file-type={group}
      data-shortcut={shortcut || undefined}
      style={{ display: 'inline-flex', lineHeight: 0, position: shortcut ? 'relative' : undefined }}
    >
      <Icon style={{ fontSize: size, color }} aria-label={FILE_TYPE_LABELS[group]} title={FILE_TYPE_LABELS[group]} />
      {shortcut ? (
        <span
          role="img"
          aria-label="快捷方式"
          title="快捷方式"
          style={{
            position: 'absolute',
            left: 0,
            bottom: 0,
            width: badge,
            height: badge,
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            background: '#fff',
            border: '1px solid #d9d9d9',
            borderRadius: 2,
          }}
        >
          <ArrowUpOutlined style={{ fontSize: badge - 2, color: '#1f1f1f', transform: 'rotate(45deg)' }} />
        </span>
      ) : null}
    </span>
  );
}
