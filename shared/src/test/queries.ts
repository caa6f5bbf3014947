// Queries the page tests of 云文档 share: buttons by their Chinese text, antd Select options,
// the open dialog or drawer, toasts, and waiting for the spinners to stop.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

/** The button whose text matches (antd puts a space between two Chinese characters). */
export function button(scope: HTMLElement, text: string | RegExp): HTMLButtonElement {
  const matcher = typeof text === 'string' && [...text].length === 2 ? new RegExp(`^${text[0]}\\s*${text[1]}$`) : text;
  const found = within(scope).getAllByText(matcher, { selector: 'button, button *' });
  const buttons = [...new Set(found.map((el) => el.closest('button') as HTMLButtonElement))];
  if (buttons.length !== 1) throw new Error(`${buttons.length} buttons match ${String(text)}`);
  return buttons[0];
}

/** Waits until no antd spinner spins. */
export const settled = () => waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());

/** The open dialog or drawer whose title is `text`. */
export const panelOf = (text: string) =>
  screen.getByText(text, { selector: '.ant-modal-title *, .ant-modal-title, .ant-drawer-title, .ant-modal-confirm-title' }).closest('.ant-modal, .ant-drawer') as HTMLElement;

/** The text of the toasts shown. */
export const toasts = () => Array.from(document.querySelectorAll('.ant-message-notice')).map((n) => n.textContent ?? '');

/** Opens an antd Select and picks the option labelled `label`. */
export async function pickOption(select: HTMLElement, label: string) {
  fireEvent.mouseDown(select);
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find(
      (o) => !o.closest('.ant-select-dropdown-hidden') && (o.getAttribute('title') === label || o.textContent === label),
    );
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  await act(async () => {
    fireEvent.click(option);
  });
}
