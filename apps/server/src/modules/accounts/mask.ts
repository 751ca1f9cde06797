/** `a***@example.com`, `+44****1234`: what the client shows as "code sent to", and what logs may keep. */
export function maskAddress(address: string): string {
  const at = address.indexOf("@");
  if (at > 0) return `${address.slice(0, 1)}***${address.slice(at)}`;
  return `${address.slice(0, 3)}****${address.slice(-4)}`;
}
