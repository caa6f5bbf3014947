import { fireEvent, render, screen } from '@testing-library/react';
import { report } from '../__tests__/fixtures';
import { TileVisual } from './TileVisual';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

describe('宫格中的缩略图', () => {
  it('shows a picture’s thumbnail from the server, and the icon when there is none', () => {
    const photo = { ...report, id: '42', name: '合影.JPG', extension: 'JPG' };
    const { unmount } = render(<TileVisual item={photo} size={48} />);
    const img = screen.getByRole('img', { name: '合影.JPG 的缩略图' });
    expect(img).toHaveAttribute('src', '/api/User/Preview/42/Thumbnail');
    // not made yet, or not a picture sharp reads: the type's icon instead
    fireEvent.error(img);
    expect(screen.queryByRole('img', { name: '合影.JPG 的缩略图' })).not.toBeInTheDocument();
    unmount();

    render(<TileVisual item={report} size={48} />);
    expect(screen.queryByRole('img', { name: /缩略图/ })).not.toBeInTheDocument();
  });
});
