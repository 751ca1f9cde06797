// The campaign page's script, in a file of its own: the site's CSP allows no inline script.
const logList = document.getElementById("callback-log");

function log(name, detail) {
  const item = document.createElement("li");
  item.textContent = `${new Date().toISOString().slice(11, 19)} ${name}(${JSON.stringify(detail)})`;
  item.dataset.callback = name;
  logList.prepend(item);
}

let handle;

function mountShell() {
  const params = new URLSearchParams(location.search);
  handle = window.MeridianShell.mount(
    { header: document.getElementById("site-header"), footer: document.getElementById("site-footer") },
    {
      locale: params.get("locale") || "en",
      theme: params.get("theme") || "white",
      currentPath: "/airdrops",
      onNavigate(href, key) {
        // A campaign site might open its own pages; this one only reports the click.
        log("onNavigate", { href, key });
      },
      onThemeChange(theme) {
        document.body.classList.toggle("campaign-dark", theme === "black");
        log("onThemeChange", theme);
      },
      onLanguageChange(locale) {
        document.documentElement.lang = locale;
        const next = new URL(location.href);
        next.searchParams.set("locale", locale);
        history.replaceState(null, "", next);
        log("onLanguageChange", locale);
      },
      onLogout() {
        handle.update({ user: null });
        log("onLogout", null);
      },
    },
  );
  handle.rendered.then(() => {
    document.body.dataset.shellMounted = "true";
    log("mounted", null);
  });
}

document.getElementById("login-as-demo").addEventListener("click", () => {
  handle.update({ user: { userId: "10001", nickName: "Campaign visitor" } });
  log("update", { user: "Campaign visitor" });
});
document.getElementById("logout-demo").addEventListener("click", () => {
  handle.update({ user: null });
  log("update", { user: null });
});
document.getElementById("remount").addEventListener("click", () => {
  handle.unmount();
  delete document.body.dataset.shellMounted;
  log("unmount", null);
  mountShell();
});

document.body.classList.toggle(
  "campaign-dark",
  new URLSearchParams(location.search).get("theme") === "black",
);
mountShell();
