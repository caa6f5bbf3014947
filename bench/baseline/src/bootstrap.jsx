// The baseline of figure 1: the same sign-in form, written the way a naive Module
// Federation shell writes it — antd's Form, Input and Button, with antd shared as a
// singleton so that the whole library is in the initial load.
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes, Navigate } from 'react-router-dom';
import { Button, ConfigProvider, Form, Input, Typography } from 'antd';

function Login() {
  const [form] = Form.useForm();
  return (
    <div style={{ maxWidth: 360, margin: '15vh auto' }}>
      <Typography.Title level={3}>云文档</Typography.Title>
      <Form form={form} onFinish={() => {}} autoComplete="off">
        <Form.Item name="userName" rules={[{ required: true, message: '请输入用户名' }]}>
          <Input placeholder="请输入用户名" />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password placeholder="请输入密码" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block>登录</Button>
      </Form>
    </div>
  );
}

createRoot(document.getElementById('root')).render(
  <ConfigProvider>
    <BrowserRouter>
      <Routes>
        <Route path="/login" element={<Login />} />
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Routes>
    </BrowserRouter>
  </ConfigProvider>,
);
