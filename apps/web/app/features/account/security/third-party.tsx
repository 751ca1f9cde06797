import type { ThirdIdentityDto } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { withStepUp } from "../../../api/passkey-client.ts";
import { CredentialList, useCredentials } from "./credential-list.tsx";
import { formatWhen } from "./security-shell.tsx";

/**
 * The security page's third-party sign-ins (OpenID providers, Telegram): listed with when
 * each was linked and last used; one is unlinked only while another way in remains (the
 * server says so otherwise), after a step-up when the account has a factor.
 */
export function ThirdPartySection({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const { list, action } = useCredentials<{ identities: ThirdIdentityDto[] }>("v1/user/security/thirdParty");
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="third-title" data-testid="third-section">
      <h3 id="third-title">{t("third.bound")}</h3>
      <CredentialList
        read={list}
        items={list.data?.identities}
        action={action}
        itemKey={(i) => i.provider}
        empty={t("third.none")}
        testId="third"
        errorTestId="third-unbind-error"
        itemTestId="third-item"
        name={(i) => (
          <>
            <strong>{i.name}</strong> <bdi data-testid="third-display">{i.display}</bdi>
          </>
        )}
        meta={(i) => (
          <>
            {t("third.linked", { when: formatWhen(i.createdAt, locale) })}
            {i.lastUsedAt === null
              ? null
              : ` · ${t("passkeys.lastUsed", { when: formatWhen(i.lastUsedAt, locale) })}`}
          </>
        )}
        remove={{
          label: t("third.unbind"),
          testId: "third-unbind",
          run: async (i) => {
            await withStepUp(() =>
              accountClient().api.post("v1/user/third/unbind", { provider: i.provider }, { silent: true }),
            );
            return t("third.unbound");
          },
        }}
      />
    </section>
  );
}
