import type { DomainConfigList } from "@meridian/contracts";
import type { Config } from "../../platform/config.ts";

/** Image hosts per region, from configuration (docs/product.md §7: getDomainConfigList). */
export function domainConfigList(config: Pick<Config, "imgDomains">): DomainConfigList {
  return {
    imgDomainConfig: {
      foreignDomainList: [...config.imgDomains.foreign],
      internalDomainList: [...config.imgDomains.internal],
    },
  };
}
