import { getLocale } from "@meridian/contracts/locales";
import { Drawer } from "antd";
import { useTranslation } from "react-i18next";
import { AntdConfig } from "./antd-config.tsx";
import { MenuBody } from "./menu-body.tsx";
import type { NavKey, ShellProps } from "./types.ts";

interface MobileMenuProps extends ShellProps {
  open: boolean;
  onClose: () => void;
}

/** The phone-width menu: every section plus the header's controls (with its own antd provider: pages may have none). */
export function MobileMenu({ open, onClose, ...props }: MobileMenuProps) {
  const { t } = useTranslation("shell");
  const rtl = getLocale(props.locale).dir === "rtl";
  const navigate = (href: string, key?: NavKey) => {
    onClose();
    props.onNavigate(href, key);
  };

  return (
    <AntdConfig>
      <Drawer
        open={open}
        onClose={onClose}
        title={t("nav.menu")}
        placement={rtl ? "left" : "right"}
        size={320}
        rootClassName="shell-drawer"
      >
        <MenuBody {...props} onNavigate={navigate} />
      </Drawer>
    </AntdConfig>
  );
}
