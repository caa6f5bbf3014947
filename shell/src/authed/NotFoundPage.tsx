import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { Messages } from '@app/shared';
import { useHomePath } from '../routing/helpers';

export function NotFoundPage() {
  const navigate = useNavigate();
  const home = useHomePath();
  return (
    <Result
      status="404"
      title={Messages.notFound}
      subTitle="您访问的页面不存在，或当前账号没有可用的功能。"
      extra={
        home && home !== '/404' ? (
          <Button type="primary" onClick={() => navigate(home)}>
            返回首页
          </Button>
        ) : null
      }
    />
  );
}
