// The QR code of an otpauth:// address. antd's QRCode lives in its own chunk: only the
// binding step, which few sign-ins reach, loads it.
import { QRCode } from 'antd';

export default function TotpQr({ value }: { value: string }) {
  return <QRCode value={value} size={176} bordered={false} aria-label="绑定动态口令的二维码" />;
}
