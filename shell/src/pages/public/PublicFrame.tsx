// The frame of 云文档's public pages: brand, title, the page, and links back.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useBranding, useProductName } from '../../branding/branding';
import { Brand } from './Brand';
import './public.css';

export function PublicFrame({ title, children, wide = true }: { title: string; children: ReactNode; wide?: boolean }) {
  const name = useProductName();
  const branding = useBranding();
  return (
    <div className="yw-screen">
      <main className={`yw-card${wide ? ' yw-card--wide' : ''} yw-article`}>
        <Brand name={name} logo={branding?.logo_Light || undefined} />
        <h1>{title}</h1>
        {children}
        <nav className="yw-links" aria-label="其他链接">
          <Link to="/login">返回登录</Link>
          <Link to="/service">服务协议</Link>
          <Link to="/privacy">隐私政策</Link>
        </nav>
      </main>
    </div>
  );
}
