import type { ReactNode } from 'react';
import { RemotePage } from './RemotePage';
import { UnavailableSection } from './SectionEmpty';

/** A page that exists in the menu but whose feature is not available yet. */
export function UnavailablePage({ title, nav, extra }: { title: string; nav?: ReactNode; extra?: ReactNode }) {
  return (
    <RemotePage title={title} nav={nav} extra={extra}>
      <UnavailableSection feature={title} />
    </RemotePage>
  );
}
