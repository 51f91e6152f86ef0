// Why a file operation failed, in words a user reads once: "no space left on device (ENOSPC)".
// Shared by the private files, the output streams and the shim (through dist/shim.cjs).

const WORDS: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EIO: "input/output error",
  EFBIG: "file too large",
  EBADF: "standard output is closed",
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "is a folder",
  ELOOP: "is a symbolic link",
  EEXIST: "already exists",
  EMFILE: "too many open files",
  ENAMETOOLONG: "name too long",
};

/** "no space left on device (ENOSPC)"; an error without a code gives its message. */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  const code = e?.code;
  if (!code) return e?.message ?? String(error);
  return `${WORDS[code] ?? e.syscall ?? "failed"} (${code})`;
}
