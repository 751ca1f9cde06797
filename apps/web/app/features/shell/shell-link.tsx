import type { AnchorHTMLAttributes, MouseEvent } from "react";
import type { NavKey } from "./types.ts";

interface ShellLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  navKey?: NavKey | undefined;
  onNavigate: (href: string, key?: NavKey) => void;
}

/** A real link (works without JS, opens in a new tab) that hands plain clicks to the host. */
export function ShellLink({ href, navKey, onNavigate, onClick, ...rest }: ShellLinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || rest.target) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onNavigate(href, navKey);
  };
  // The islands bundle of a page without hydration marks paper mode from this attribute.
  const simulation = navKey === "simulation" ? "" : undefined;
  return <a href={href} onClick={handleClick} data-simulation={simulation} {...rest} />;
}
