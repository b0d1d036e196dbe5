/** Hands bytes the page made to the browser as a file download. */
export function downloadBytes(bytes: Uint8Array, fileName: string, type = 'application/zip'): void {
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL; release it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A run id as a file name: anything but letters, digits, '.', '_' and '-' becomes '_'. */
export function fileSafe(id: string): string {
  return id.replace(/[^\w.-]+/g, '_');
}
