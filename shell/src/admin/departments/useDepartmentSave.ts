// One change to the chosen department saved at a time: which one is under way, a success
// message and a fresh tree, or the http client's error and the edit kept.
import { useState } from 'react';
import { notify } from '@app/shared';

/** Saves `what` through `call`; true when it was saved (then `done` is shown). */
export type SaveDepartment = (what: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

export function useDepartmentSave(onChanged: () => void): { saving: string | null; save: SaveDepartment } {
  const [saving, setSaving] = useState<string | null>(null);
  const save: SaveDepartment = async (what, call, done) => {
    setSaving(what);
    try {
      await call();
      notify.success(done);
      onChanged();
      return true;
    } catch {
      return false;
    } finally {
      setSaving(null);
    }
  };
  return { saving, save };
}
