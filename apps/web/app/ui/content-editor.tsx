import { type FormInstance, Modal } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { ContentLanguageSwitch, hasText } from "./content-languages.tsx";

/** A stored item's translations: language code -> that language's texts. */
export type Translations = Record<string, Record<string, unknown>>;

export interface ContentEditorOptions<Stored, Values> {
  open: boolean;
  form: FormInstance<Values>;
  /** The item being edited, loaded when the dialog opens; null for a new item. */
  load: (() => Promise<Stored>) | null;
  /** What a load depends on besides `open` (the item's slug or id). */
  loadKey: unknown;
  /** The form's values on opening: a new item's, or an existing one's until it is loaded. */
  initial: () => Partial<Values>;
  /** The form's values for the stored item in `language` (English: the whole item). */
  show: (stored: Stored, language: string) => Partial<Values>;
}

export interface ContentEditor<Stored> {
  /** The stored item, once loaded; null for a new one. */
  stored: Stored | null;
  /** The language being edited: "en" edits the whole item, another only its texts. */
  language: string;
  error: string;
  switchLanguage: (code: string) => void;
  /** Runs a save: `onSaved` after it, its message in `error` if it fails. */
  save: (call: () => Promise<unknown>, onSaved: () => void) => Promise<void>;
}

/**
 * The state every content editor keeps (docs/content.md): on opening, the form is reset
 * and the stored item loaded in English; switching the language refills the form with
 * that language's texts; a save reports its failure in the dialog.
 */
export function useContentEditor<Stored, Values>({
  open,
  form,
  load,
  loadKey,
  initial,
  show,
}: ContentEditorOptions<Stored, Values>): ContentEditor<Stored> {
  const [stored, setStored] = useState<Stored | null>(null);
  const [error, setError] = useState("");
  const [language, setLanguage] = useState("en");

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only when the dialog opens or its item changes
  useEffect(() => {
    if (!open) return;
    setError("");
    setLanguage("en");
    setStored(null);
    form.resetFields();
    form.setFieldsValue(initial() as Parameters<typeof form.setFieldsValue>[0]);
    if (load === null) return;
    void load().then(
      (record) => {
        setStored(record);
        form.setFieldsValue(show(record, "en") as Parameters<typeof form.setFieldsValue>[0]);
      },
      (e: Error) => setError(e.message),
    );
  }, [open, loadKey, form]);

  return {
    stored,
    language,
    error,
    switchLanguage: (code) => {
      if (stored === null) return;
      setLanguage(code);
      form.setFieldsValue(show(stored, code) as Parameters<typeof form.setFieldsValue>[0]);
    },
    save: async (call, onSaved) => {
      try {
        await call();
        onSaved();
      } catch (e) {
        setError((e as Error).message);
      }
    },
  };
}

/**
 * The dialog of a content editor: its error, the language switch once the item is stored
 * (a `*` marks the languages whose `writtenBy` text is still empty), then the form.
 */
export function ContentEditorModal({
  open,
  title,
  okText,
  width,
  forceRender,
  onCancel,
  onOk,
  error,
  errorClassName,
  languages,
  children,
}: {
  open: boolean;
  title: ReactNode;
  okText?: string;
  width?: number;
  forceRender?: boolean;
  onCancel: () => void;
  onOk: () => void | Promise<void>;
  error: string;
  errorClassName: string;
  languages: {
    label: string;
    value: string;
    testId: string;
    translations: Translations | undefined;
    writtenBy: string;
    onChange: (code: string) => void;
  } | null;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      onOk={onOk}
      {...(okText === undefined ? {} : { okText })}
      {...(width === undefined ? {} : { width })}
      {...(forceRender === undefined ? {} : { forceRender })}
    >
      {error ? (
        <p role="alert" className={errorClassName}>
          {error}
        </p>
      ) : null}
      {languages !== null ? (
        <ContentLanguageSwitch
          label={languages.label}
          value={languages.value}
          testId={languages.testId}
          written={(code) => hasText(languages.translations, code, languages.writtenBy)}
          onChange={languages.onChange}
        />
      ) : null}
      {children}
    </Modal>
  );
}
