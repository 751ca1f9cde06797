// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { PROBE_IMAGE_ATTRIBUTE } from "./probe.ts";
import { installImageDomainSwapper } from "./swapper.ts";

function markLoaded(img: HTMLImageElement): void {
  Object.defineProperty(img, "complete", { value: true });
}

const installed: Array<() => void> = [];
function install(...args: Parameters<typeof installImageDomainSwapper>): () => void {
  const uninstall = installImageDomainSwapper(...args);
  installed.push(uninstall);
  return uninstall;
}

afterEach(() => {
  for (const uninstall of installed.splice(0)) uninstall();
  document.body.innerHTML = "";
});

describe("installImageDomainSwapper", () => {
  const allowed = ["img.old.com", "cdn.old.com"];

  it("swaps images that have not loaded yet, on allowed hosts only", () => {
    document.body.innerHTML = `
      <img id="pending" src="https://img.old.com/a.png?x=1">
      <img id="loaded" src="https://cdn.old.com/b.png">
      <img id="foreign" src="https://elsewhere.com/c.png">
      <img id="relative" src="/d.png">`;
    const loaded = document.getElementById("loaded") as HTMLImageElement;
    markLoaded(loaded);
    install(document, "img.fast.com", allowed);
    expect(document.getElementById("pending")?.getAttribute("src")).toBe("https://img.fast.com/a.png?x=1");
    expect(loaded.getAttribute("src")).toBe("https://cdn.old.com/b.png");
    expect(document.getElementById("foreign")?.getAttribute("src")).toBe("https://elsewhere.com/c.png");
    expect(document.getElementById("relative")?.getAttribute("src")).toBe("/d.png");
  });

  it("swaps an image when it fails to load later", () => {
    document.body.innerHTML = `<img id="late" src="https://cdn.old.com/b.png">`;
    const img = document.getElementById("late") as HTMLImageElement;
    markLoaded(img);
    const uninstall = install(document, "img.fast.com", allowed);
    expect(img.getAttribute("src")).toBe("https://cdn.old.com/b.png");
    img.dispatchEvent(new Event("error"));
    expect(img.getAttribute("src")).toBe("https://img.fast.com/b.png");

    uninstall();
    img.setAttribute("src", "https://img.old.com/again.png");
    img.dispatchEvent(new Event("error"));
    expect(img.getAttribute("src")).toBe("https://img.old.com/again.png");
  });

  it("leaves test images alone", () => {
    document.body.innerHTML = `<img id="probe" ${PROBE_IMAGE_ATTRIBUTE} src="https://img.old.com/static/probe.png?t=1">`;
    const probe = document.getElementById("probe") as HTMLImageElement;
    install(document, "img.fast.com", allowed);
    probe.dispatchEvent(new Event("error"));
    expect(probe.getAttribute("src")).toBe("https://img.old.com/static/probe.png?t=1");
  });
});
