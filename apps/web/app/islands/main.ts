/**
 * The islands bundle: all the JavaScript a page without hydration loads
 * (features/shell/islands.ts, docs/architecture.md "Pages without hydration"). The page is
 * complete in its server HTML; this wires what is interactive in it with plain DOM code,
 * no React: the shell (header menus and pickers, phone menu, legal notice, download bar),
 * the page's widgets (accordions, countdowns, read more, screenshots, the rating, the
 * home page's live prices), then
 * the session load, the tracking SDK and the image-domain probe, each its own chunk. Each island finds its elements by the markup
 * the components render; a page without one of them skips it.
 *
 * Loaded after the first paint like the hydrated pages' scripts (paint-first.ts): the
 * boot script's early clicks are replayed once everything is wired.
 */
import { ISLANDS_READY_ATTRIBUTE } from "../features/shell/islands-ready.ts";
import { HYDRATE_START_EVENT, HYDRATED_EVENT } from "../features/shell/storage-keys.ts";
import { loadTracker } from "../features/tracking/load-tracker.ts";
import { browserStorage, createSimulationController } from "../lib/simulation-controller.ts";
import { wireAccordions, wireCountdowns, wireReadMore, wireScreenshots } from "./content.ts";
import { wireHeroMarkets } from "./markets.ts";
import { wireRatings } from "./rating.ts";
import { wireShell } from "./shell.ts";
import { wireSubmissions } from "./submit.ts";

// Simulation mode (docs/product.md §4): the hydrated app guards every navigation; a page
// without hydration guards itself once, and follows another tab's change of the flag.
const simulation = createSimulationController({
  storage: browserStorage,
  pathname: () => window.location.pathname,
  navigate: (to, { replace }) => (replace ? window.location.replace(to) : window.location.assign(to)),
  reload: () => window.location.reload(),
});
window.addEventListener("storage", (event) => simulation.onStorage(event));
if (!simulation.guard()) wire();

function wire(): void {
  window.dispatchEvent(new Event(HYDRATE_START_EVENT));
  wireShell(document);
  wireAccordions(document);
  wireCountdowns(document);
  wireReadMore(document);
  wireScreenshots(document);
  wireRatings(document);
  wireHeroMarkets(document);
  wireSubmissions(document);
  document.documentElement.setAttribute(ISLANDS_READY_ATTRIBUTE, "");
  window.dispatchEvent(new Event(HYDRATED_EVENT));
}

// Session load on page start (docs/product.md §4, as the root layout does): user info,
// cached user id, signing for the bound key. The API client is its own chunk.
void import("../api/account-client.ts").then(({ accountClient }) => accountClient().loadSession());
// Page views, clicks and exposes, for the logged-in visitor too (the server put the id on <body>).
void loadTracker().then((tracker) => tracker?.setUser(document.body.dataset.uid ?? null));
// The image-domain probe and swapper (free to change `src` here: nothing hydrates).
void import("../features/image-domain/image-domain.ts").then(({ startImageDomain }) => startImageDomain());
