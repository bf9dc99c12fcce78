/** An error the operating system reported about a file or socket (ENOENT, EISDIR, EACCES, …). */
export function isSystemError(error: unknown): boolean {
  return /^E[A-Z]+$/.test(String((error as { code?: unknown } | null)?.code));
}
