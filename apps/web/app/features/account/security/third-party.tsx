import type { ThirdIdentityDto } from "@meridian/contracts";
import { Button } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { withStepUp } from "../../../api/passkey-client.ts";
import { useApiData } from "../../../lib/use-api-data.ts";
import { ListFrame, useListAction } from "../../../ui/list-frame.tsx";
import { failureText, formatWhen } from "./security-shell.tsx";

/**
 * The security page's third-party sign-ins (OpenID providers, Telegram): listed with when
 * each was linked and last used; one is unlinked only while another way in remains (the
 * server says so otherwise), after a step-up when the account has a factor.
 */
export function ThirdPartySection({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const load = useCallback(
    () =>
      accountClient().api.get<{ identities: ThirdIdentityDto[] }>("v1/user/security/thirdParty", undefined, {
        silent: true,
      }),
    [],
  );
  const list = useApiData(load);
  const action = useListAction(list.reload, (err) => failureText(err, t));
  const unbind = (provider: string) =>
    action.run(async () => {
      await withStepUp(() =>
        accountClient().api.post("v1/user/third/unbind", { provider }, { silent: true }),
      );
      return t("third.unbound");
    });
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="third-title" data-testid="third-section">
      <h3 id="third-title">{t("third.bound")}</h3>
      <ListFrame
        read={list}
        items={list.data?.identities}
        itemKey={(i) => i.provider}
        itemProps={() => ({ "data-testid": "third-item" })}
        empty={t("third.none")}
        notice={action.notice}
        error={action.error}
        testId="third"
        errorTestId="third-unbind-error"
        renderItem={(i) => (
          <>
            <span>
              <strong>{i.name}</strong> <bdi data-testid="third-display">{i.display}</bdi>
              <br />
              <span className="security-device-meta">
                {t("third.linked", { when: formatWhen(i.createdAt, locale) })}
                {i.lastUsedAt === null
                  ? null
                  : ` · ${t("passkeys.lastUsed", { when: formatWhen(i.lastUsedAt, locale) })}`}
              </span>
            </span>
            <Button
              danger
              size="small"
              disabled={action.busy}
              onClick={() => void unbind(i.provider)}
              data-testid="third-unbind"
            >
              {t("third.unbind")}
            </Button>
          </>
        )}
      />
    </section>
  );
}
