import { isApiError } from "@meridian/client/api-error";
import { useTranslation } from "react-i18next";

/**
 * A read that failed (see `useApiData`): says so with the server's code, and offers to
 * read again. Renders nothing without an error.
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation("shell");
  if (error === null || error === undefined) return null;
  const code = isApiError(error) && error.code !== "" ? error.code : undefined;
  return (
    <p className="load-error" role="alert" data-testid="load-error">
      <span>{code === undefined ? t("loadError.title") : t("loadError.titleCode", { code })}</span>{" "}
      <button type="button" className="load-error-retry" onClick={onRetry}>
        {t("loadError.retry")}
      </button>
    </p>
  );
}
