import { ExperimentOutlined } from "@ant-design/icons";
import type { SimulationMarket } from "@meridian/contracts";
import { Button, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { useSimulation } from "../lib/simulation-provider.tsx";

export interface EnterSimulationButtonProps extends Omit<ButtonProps, "onClick"> {
  /** Which default page entering opens (spot unless told). */
  market?: SimulationMarket;
}

/**
 * Enters simulation mode (flag on, then the language-prefixed default page); while the
 * mode is on the same button leaves it (flag cleared, page reloaded).
 */
export function EnterSimulationButton({ market = "spot", ...props }: EnterSimulationButtonProps) {
  const { t } = useTranslation("shell");
  const { active, enter, exit } = useSimulation();
  return (
    <Button
      icon={<ExperimentOutlined />}
      {...props}
      data-simulation={active ? "on" : "off"}
      onClick={() => (active ? exit() : enter(market))}
    >
      {active ? t("simulation.exit", "Exit simulation") : t("simulation.enter", "Simulation trading")}
    </Button>
  );
}
