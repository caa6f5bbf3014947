// 新建分类 and 重命名 of 我的收藏: the shared name dialog with the rules of a category's name
// (at most TAG_NAME_MAX_LENGTH characters, unlike the other categories' names).
import { TAG_NAME_MAX_LENGTH } from '@app/shared';
import { NameDialog } from '../actions/NameDialog';
import { nameLength, shortNameError } from '../common/shortName';

export interface CategoryDialogProps {
  open: boolean;
  title: string;
  initialValue?: string;
  /** the names it must differ from (the other categories, 默认收藏夹 included) */
  taken: string[];
  /** receives the trimmed name; a rejection keeps the dialog open */
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}

export function CategoryDialog({ taken, ...props }: CategoryDialogProps) {
  return (
    <NameDialog
      {...props}
      label="分类名称"
      validate={(value) => shortNameError(value, '分类', taken)}
      maxLength={TAG_NAME_MAX_LENGTH}
      countLength={nameLength}
    />
  );
}
