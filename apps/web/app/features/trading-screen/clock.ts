/**
 * The trading panels' times in the browser's zone, as `dayjs().format` wrote them, without
 * dayjs (3 KB gzip of the trading pages' first load for two fixed formats).
 */
const two = (n: number) => String(n).padStart(2, "0");

/** `HH:mm:ss`, local time. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** `YYYY-MM-DD HH:mm:ss`, local time. */
export function clockDateTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getFullYear()).padStart(4, "0")}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${clockTime(ms)}`;
}
