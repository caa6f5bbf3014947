// A person dragged from the people list of a department onto another department of the tree.
import type { DragEvent } from 'react';
import { personName } from '../personLabel';

/** The drag data of a person dragged from the member list onto the tree: the user id. */
export const USER_DRAG_TYPE = 'application/x-yunwendang-user';

/** True when the drag carries a person. */
export const hasUserDrag = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes(USER_DRAG_TYPE);

/** Starts dragging a person: the user id, and the name for other drop targets. */
export function startUserDrag(e: DragEvent, person: { userId: string; nickName: string; userName: string }) {
  e.dataTransfer.setData(USER_DRAG_TYPE, person.userId);
  e.dataTransfer.setData('text/plain', personName(person));
  e.dataTransfer.effectAllowed = 'move';
}
