export { EnterSimulationButton, type EnterSimulationButtonProps } from "./enter-simulation-button.tsx";
export {
  browserStorage,
  createSimulationController,
  isSimulationActive,
  type SimulationController,
  type SimulationEnv,
} from "./simulation-controller.ts";
export { SimulationProvider, type SimulationState, useSimulation } from "./simulation-provider.tsx";
