import { APP_NAME } from '@app/shared';

export function Brand({ name, logo }: { name?: string; logo?: string }) {
  const title = name || APP_NAME;
  return (
    <div className="yw-brand">
      <span className="yw-brand__logo" aria-hidden="true">
        {logo ? <img src={logo} alt="" /> : title.slice(0, 1)}
      </span>
      <h1 className="yw-brand__name">{title}</h1>
    </div>
  );
}
