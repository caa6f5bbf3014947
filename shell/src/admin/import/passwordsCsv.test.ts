// The initial-password CSV: a byte order mark for Excel, the Chinese header, one row per
// person, and quoting only where a field needs it.
import { csvField, passwordsCsv } from './passwordsCsv';

describe('passwordsCsv', () => {
  it('starts with a BOM and the header, then one CRLF-ended row per person', () => {
    const csv = passwordsCsv([
      { userName: 'zhangsan', nickName: '张三', initialPassword: 'Xk7#pq9w' },
      { userName: 'lisi', nickName: '李四', initialPassword: 'aB3$zz01' },
    ]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1)).toBe('用户名,昵称,初始密码\r\nzhangsan,张三,Xk7#pq9w\r\nlisi,李四,aB3$zz01\r\n');
  });

  it('quotes fields holding a comma, a quote or a line break and doubles the quotes', () => {
    const csv = passwordsCsv([{ userName: 'wang,wu', nickName: '王"五"', initialPassword: 'a\nb' }]);
    expect(csv.slice(1).split('\r\n')[1]).toBe('"wang,wu","王""五""","a\nb"');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('')).toBe('');
    expect(csvField('x\ry')).toBe('"x\ry"');
  });

  it('is only the header when nobody got a password', () => {
    expect(passwordsCsv([])).toBe('\uFEFF用户名,昵称,初始密码\r\n');
  });
});
