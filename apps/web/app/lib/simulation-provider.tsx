import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import {
  browserStorage,
  createSimulationController,
  type SimulationController,
} from "./simulation-controller.ts";

export interface SimulationState {
  /** The flag as read after hydration (false during SSR). */
  active: boolean;
  enter: SimulationController["enter"];
  exit: SimulationController["exit"];
}

const SimulationContext = createContext<SimulationState | null>(null);

/**
 * Mount once inside the router (root layout): guards every navigation while the
 * simulation flag is on and follows other tabs' changes. The server never sees the flag
 * (local storage), so the first render says inactive and the effect corrects it.
 */
export function SimulationProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const pathRef = useRef(location.pathname);
  pathRef.current = location.pathname;
  const [active, setActive] = useState(false);

  const controller = useMemo(
    () =>
      createSimulationController({
        storage: browserStorage,
        pathname: () => pathRef.current,
        navigate: (to, options) => {
          void navigate(to, options);
        },
        reload: () => window.location.reload(),
      }),
    [navigate],
  );

  useEffect(() => {
    setActive(controller.isActive());
    controller.guard(location.pathname);
  }, [controller, location.pathname]);

  useEffect(() => {
    const handle = (event: StorageEvent) => controller.onStorage(event);
    window.addEventListener("storage", handle);
    return () => window.removeEventListener("storage", handle);
  }, [controller]);

  const value = useMemo<SimulationState>(
    () => ({
      active,
      enter: (market) => {
        controller.enter(market);
        setActive(controller.isActive());
      },
      exit: () => controller.exit(),
    }),
    [active, controller],
  );
  return <SimulationContext.Provider value={value}>{children}</SimulationContext.Provider>;
}

/** Simulation state and actions; outside the provider it reads inactive and does nothing. */
export function useSimulation(): SimulationState {
  return useContext(SimulationContext) ?? { active: false, enter: () => {}, exit: () => {} };
}
