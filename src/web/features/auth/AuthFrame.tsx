import type { ReactNode } from 'react';
import './auth.css';

/** The centred card the signed-out pages share. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-page">
      <div className="auth-brand">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>Tavla</span>
      </div>
      <main className="auth-card">
        <h1>{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}
