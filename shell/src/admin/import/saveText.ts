// Text saved as a file by the browser, such as the initial passwords of an import.

/** Saves text as a file through a temporary link; false where the browser cannot. */
export function saveText(text: string, fileName: string, type: string): boolean {
  if (typeof URL === 'undefined' || typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL?.(url), 60_000);
  return true;
}
