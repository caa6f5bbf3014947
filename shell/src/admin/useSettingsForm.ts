// A settings form of 系统管理 that is read once and saved whole (LDAP, the mail server): loads the
// settings into the form, and saves the form after validating it, showing what the server
// answered. `show` puts settings into the form (a stable function); `load` and `store` call the
// API; `saved` is the message after a save that is not quiet.
import { useEffect, useState } from 'react';
import type { FormInstance } from 'antd';
import { notify } from '@app/shared';

export function useSettingsForm<S, V, B>(
  form: FormInstance<V>,
  o: { load: () => Promise<S>; store: (body: B) => Promise<S>; toBody: (values: V) => B; show: (settings: S) => void; saved: string },
) {
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  const { load, show } = o;

  useEffect(() => {
    let live = true;
    load()
      .then((s) => {
        if (!live) return;
        show(s);
        setLoaded(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [load, show]);

  /** Saves the form; false when it is not valid or the server refused it. */
  const save = async (quiet = false): Promise<boolean> => {
    try {
      await form.validateFields();
    } catch {
      return false;
    }
    setSaving(true);
    try {
      show(await o.store(o.toBody(form.getFieldsValue(true) as V)));
      if (!quiet) notify.success(o.saved);
      return true;
    } catch {
      /* shown by the http client */
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { loaded, saving, save };
}
