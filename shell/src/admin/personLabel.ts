// How a person is named in the administration pages.
interface Named {
  nickName?: string | null;
  userName: string;
}

/** The nickname, or the user name when there is none. */
export const personName = (u: Named) => u.nickName || u.userName;

/** “昵称（用户名）”, or only the user name when the nickname is empty or the same. */
export const personLabel = (u: Named) => (u.nickName && u.nickName !== u.userName ? `${u.nickName}（${u.userName}）` : u.userName);
