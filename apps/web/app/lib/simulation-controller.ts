import {
  isSimulationFlagOn,
  isSimulationPathKept,
  SIMULATION_STORAGE_KEY,
  type SimulationMarket,
  simulationEntry,
  simulationRedirect,
} from "@meridian/contracts/simulation";

/** What the controller needs from the browser and the router (injected so tests drive it). */
export interface SimulationEnv {
  storage: () => Storage | undefined;
  /** Current pathname (with the language prefix). */
  pathname: () => string;
  navigate: (to: string, options: { replace: boolean }) => void;
  reload: () => void;
}

function read(env: SimulationEnv): string | null {
  try {
    return env.storage()?.getItem(SIMULATION_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** True while the simulation flag is on in this browser (the API client's `simulation` getter). */
export function isSimulationActive(storage: Storage | undefined = browserStorage()): boolean {
  try {
    return isSimulationFlagOn(storage?.getItem(SIMULATION_STORAGE_KEY));
  } catch {
    return false;
  }
}

export function browserStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Simulation mode (docs/product.md §4) as plain functions over an environment: enter, exit,
 * the guard run on every navigation and the reaction to another tab's change.
 */
export function createSimulationController(env: SimulationEnv) {
  return {
    isActive(): boolean {
      return isSimulationFlagOn(read(env));
    },

    /**
     * Sets the flag and goes where `simulationEntry` says: the language-prefixed default
     * spot page, the futures one from a futures page (or when `market` asks), or nowhere
     * on the margin screen (it is on the allowed list; the page follows the flag).
     */
    enter(market: SimulationMarket = "spot"): void {
      try {
        env.storage()?.setItem(SIMULATION_STORAGE_KEY, "1");
      } catch {
        // Without storage the page opens in normal mode.
      }
      const from = env.pathname();
      const to = simulationEntry(from, market);
      if (to !== from) env.navigate(to, { replace: false });
    },

    /** Clears the flag and reloads, so every request and view leaves paper mode. */
    exit(): void {
      try {
        env.storage()?.removeItem(SIMULATION_STORAGE_KEY);
      } catch {
        // Nothing stored: nothing to clear.
      }
      env.reload();
    },

    /**
     * Run after every navigation: with the flag on, a page outside the allowed list (and
     * not a pass-through page: log in, sign up, sub-accounts) is replaced by the spot
     * page. Returns true when it redirected.
     */
    guard(pathname: string = env.pathname()): boolean {
      if (!isSimulationFlagOn(read(env)) || isSimulationPathKept(pathname)) return false;
      env.navigate(simulationRedirect(pathname), { replace: true });
      return true;
    },

    /**
     * Another tab changed the flag: reload when it was cleared or set on an allowed page,
     * go to the spot page when it was set on a page simulation does not allow.
     * `key === null` is `localStorage.clear()`.
     */
    onStorage(event: Pick<StorageEvent, "key" | "oldValue" | "newValue">): void {
      if (event.key !== SIMULATION_STORAGE_KEY && event.key !== null) return;
      const was = isSimulationFlagOn(event.oldValue);
      const now = event.key === null ? false : isSimulationFlagOn(event.newValue);
      if (was === now) return;
      const pathname = env.pathname();
      if (now && !isSimulationPathKept(pathname))
        env.navigate(simulationRedirect(pathname), { replace: true });
      else env.reload();
    },
  };
}

export type SimulationController = ReturnType<typeof createSimulationController>;
