// antd's static message and modal, used for notices raised before the signed-in layout
// (and its antd App context) is mounted. Loaded on demand only.
import { message, Modal } from 'antd';
import { createAntdNotifier } from '@app/shared/ui';

export const staticNotifier = createAntdNotifier(message, Modal);
