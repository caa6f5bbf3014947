// Links for the rows of long lists (the 操作 column, a name that opens its item). A page of a
// folder shows up to 100 rows, each with several links: antd's Typography.Link costs a set of
// style hooks per link, so these are plain anchors sharing one class whose colours come from
// the theme once per page.
import { useInsertionEffect, type KeyboardEvent, type ReactNode } from 'react';
import { theme } from 'antd';

const STYLE_ID = 'app-row-link-style';
export const ROW_LINK_CLASS = 'app-row-link';

/** Writes the class's rules with the theme's link colours; call once in the list's page. */
export function useRowLinkStyle(): void {
  const { token } = theme.useToken();
  const css =
    `.${ROW_LINK_CLASS}{color:${token.colorLink};cursor:pointer;text-decoration:none;transition:color .2s;outline:none}` +
    `.${ROW_LINK_CLASS}:hover{color:${token.colorLinkHover}}` +
    `.${ROW_LINK_CLASS}:active{color:${token.colorLinkActive}}` +
    `.${ROW_LINK_CLASS}:focus-visible{outline:2px solid ${token.colorPrimaryBorder};outline-offset:1px;border-radius:2px}`;
  useInsertionEffect(() => {
    let el = document.getElementById(STYLE_ID) as HTMLStyleElement | null;
    if (!el) {
      el = document.createElement('style');
      el.id = STYLE_ID;
      document.head.appendChild(el);
    }
    if (el.textContent !== css) el.textContent = css;
  }, [css]);
}

export interface RowLinkProps {
  onClick: () => void;
  children: ReactNode;
  'aria-label'?: string;
  title?: string;
}

/** A link-looking action: reachable by Tab, started by Enter or Space as well as a click. */
export function RowLink({ onClick, children, ...rest }: RowLinkProps) {
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onClick();
    }
  };
  return (
    <a className={ROW_LINK_CLASS} tabIndex={0} onClick={() => onClick()} onKeyDown={onKeyDown} {...rest}>
      {children}
    </a>
  );
}
