import {
  MEDIA_MAX_SCREENSHOTS,
  type MediaLinksResult,
  type MediaOwner,
  type MediaRole,
  type ResponsiveImage,
} from "@meridian/contracts/media-rules";
import { type ChangeEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { getImageLinks, setImageLinks, uploadImage } from "../api/media.ts";

const ACCEPT = "image/png,image/jpeg,image/webp,image/gif,image/avif";

/**
 * The images of one airdrop or app in the administrators' editors: the current logo,
 * cover and screenshots, an upload control per role and a remove button per image.
 * Each change is saved at once (upload, then the links).
 */
export function MediaEditor({ owner, slug }: { owner: MediaOwner; slug: string }) {
  const { t } = useTranslation("media");
  const [state, setState] = useState<MediaLinksResult | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    setState(undefined);
    getImageLinks(owner, slug).then(setState, (e: Error) => setError(e.message));
  }, [owner, slug]);

  const run = async (work: (current: MediaLinksResult) => Promise<MediaLinksResult>) => {
    if (state === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      setState(await work(state));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const onFile = (role: MediaRole) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    void run(async ({ links }) => {
      const asset = await uploadImage(role, file);
      const next =
        role === "screenshot"
          ? { ...links, screenshots: [...links.screenshots, asset.id].slice(0, MEDIA_MAX_SCREENSHOTS) }
          : { ...links, [role]: asset.id };
      return setImageLinks(owner, slug, next);
    });
  };

  const remove = (role: MediaRole, index = 0) =>
    run(({ links }) =>
      setImageLinks(
        owner,
        slug,
        role === "screenshot"
          ? { ...links, screenshots: links.screenshots.filter((_, i) => i !== index) }
          : { ...links, [role]: null },
      ),
    );

  const thumb = (image: ResponsiveImage, onRemove: () => void, key?: string) => (
    <span className="media-thumb" key={key}>
      <img
        src={image.src}
        srcSet={image.srcset}
        sizes="96px"
        alt=""
        width={96}
        height={Math.round((96 * image.height) / image.width)}
      />
      <button type="button" onClick={onRemove} disabled={busy}>
        {t("remove")}
      </button>
    </span>
  );

  const roles: MediaRole[] = owner === "airdrop" ? ["logo", "cover"] : ["logo", "screenshot"];
  return (
    <fieldset className="media-editor" data-testid="media-editor" aria-busy={busy}>
      <legend>{t("images")}</legend>
      {error ? (
        <p role="alert" className="media-error">
          {error}
        </p>
      ) : null}
      {state === undefined && error === undefined ? <p>{t("loading")}</p> : null}
      {state !== undefined
        ? roles.map((role) => (
            <div key={role} className="media-role">
              <span className="media-role-name">{t(`role.${role}`)}</span>
              <span className="media-thumbs">
                {role === "screenshot"
                  ? state.images.screenshots.map((image, i) =>
                      thumb(image, () => void remove(role, i), image.src),
                    )
                  : state.images[role]
                    ? thumb(state.images[role], () => void remove(role))
                    : null}
              </span>
              <label className="media-upload">
                {t("upload")}
                <input
                  type="file"
                  accept={ACCEPT}
                  disabled={busy}
                  onChange={onFile(role)}
                  data-testid={`media-upload-${role}`}
                />
              </label>
            </div>
          ))
        : null}
      <p className="media-hint">{t("hint")}</p>
    </fieldset>
  );
}
