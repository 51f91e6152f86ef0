/**
 * A duration for people: "30 s", "300 ms", "1.5 s" in messages; compact ("30s", "300ms") where
 * space is short (a watch's header).
 */
export function formatDuration(ms: number, compact = false): string {
  const gap = compact ? "" : " ";
  if (ms < 1000) return `${ms}${gap}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}${gap}s` : `${(ms / 1000).toFixed(1)}${gap}s`;
}
