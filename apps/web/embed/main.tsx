/**
 * The embeddable shell's module: the loader (`/embed/shell.js`, see loader.js) links the
 * stylesheet, imports this file and exposes `mount` as `window.MeridianShell.mount`.
 */
import "../app/styles/antd.generated.css";
import "../app/styles/app.css";

export { type EmbedProps, mount, type ShellHandle } from "./mount.tsx";
