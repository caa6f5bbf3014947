// An agreement's text as 云文档 stores it: blank lines part paragraphs, a line starting with
// "# " is a heading, lines starting with "- " make a list. Rendered as text, never as HTML.
import type { ReactNode } from 'react';

export function AgreementText({ content }: { content: string }) {
  const blocks: ReactNode[] = [];
  let list: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push(<p key={blocks.length}>{para.join('\n')}</p>);
    if (list.length) {
      blocks.push(
        <ul key={blocks.length}>
          {list.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>,
      );
    }
    para = [];
    list = [];
  };
  for (const raw of content.split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flush();
    } else if (line.startsWith('# ')) {
      flush();
      blocks.push(<h2 key={blocks.length}>{line.slice(2).trim()}</h2>);
    } else if (line.startsWith('- ')) {
      if (para.length) flush();
      list.push(line.slice(2).trim());
    } else {
      if (list.length) flush();
      para.push(line);
    }
  }
  flush();
  return <div className="yw-agreement">{blocks}</div>;
}
