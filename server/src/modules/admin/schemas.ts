// 云文档 administration for system administrators (others get HTTP 403 with code 40301).
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const DeletedResultSchema = Type.Object({ id: IdString() });

export const GroupBodySchema = Type.Object({
  name: Type.String({ maxLength: 256, description: '用户组名称：去掉首尾空白后 1–64 个字符，唯一' }),
});
export type GroupBody = Static<typeof GroupBodySchema>;

export const GroupMembersBodySchema = Type.Object({
  userIds: Type.Array(IdString(), { maxItems: 10000, description: '全部成员的用户 id（替换原有成员）' }),
});
export type GroupMembersBody = Static<typeof GroupMembersBodySchema>;
