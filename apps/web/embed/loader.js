/*
 * Meridian embeddable shell loader (/embed/shell.js). This URL is stable and cached
 * briefly; it links the hashed stylesheet and imports the hashed module, which are
 * cached for a year. Usage:
 *
 *   <script src="https://meridian.example/embed/shell.js"></script>
 *   MeridianShell.mount({ header: el, footer: el }, { locale, theme, user, onNavigate, ... })
 *
 * mount() returns its handle at once and renders when the module has arrived.
 */
(() => {
  if (window.MeridianShell) return;
  const ENTRY = "__MERIDIAN_ENTRY__";
  const STYLES = "__MERIDIAN_STYLES__";
  const script = document.currentScript;
  const base = new URL(".", script?.src ? script.src : location.href);

  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL(STYLES, base).href;
  // Mount once the styles are in: the shell never paints unstyled.
  const styled = new Promise((resolve) => {
    link.onload = resolve;
    link.onerror = resolve;
  });
  document.head.appendChild(link);
  const loaded = Promise.all([import(new URL(ENTRY, base).href), styled]).then((all) => all[0]);

  function mount(targets, props) {
    if (!targets || (!targets.header && !targets.footer)) {
      throw new Error("MeridianShell.mount: pass a header or a footer element");
    }
    let real = null;
    let dead = false;
    const pending = Object.assign({}, props);
    const handle = {
      rendered: null,
      update(next) {
        if (real) {
          real.update(next);
          handle.rendered = real.rendered;
        } else Object.assign(pending, next);
      },
      unmount() {
        dead = true;
        if (real) real.unmount();
      },
    };
    handle.rendered = loaded.then((mod) => {
      if (dead) return undefined;
      real = mod.mount(targets, pending);
      return real.rendered;
    });
    return handle;
  }

  window.MeridianShell = {
    mount,
    /** Settles when the module and its styles have loaded. */
    ready: loaded.then(() => undefined),
  };
})();
