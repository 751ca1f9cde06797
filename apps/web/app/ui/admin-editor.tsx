import { type ReactNode, useState } from "react";
import { type ContentEditor, ContentEditorModal, type Translations } from "./content-editor.tsx";

/** What an admin page hands its editor dialog: whether it is open, and what closing and saving do. */
export interface EditorDialogProps {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Which item an admin page's editor dialog is open for: `editing` is null while it is
 * closed, `{ item: null }` for a new item. `dialog` goes to the editor: a save closes the
 * dialog, then runs `onSaved` (the page reloads its tables).
 */
export function useEditorDialog<Item>(onSaved: () => void): {
  editing: { item: Item | null } | null;
  edit: (item: Item | null) => void;
  dialog: EditorDialogProps;
} {
  const [editing, setEditing] = useState<{ item: Item | null } | null>(null);
  return {
    editing,
    edit: (item) => setEditing({ item }),
    dialog: {
      open: editing !== null,
      onClose: () => setEditing(null),
      onSaved: () => {
        setEditing(null);
        onSaved();
      },
    },
  };
}

/**
 * An admin content editor's dialog, run by its `useContentEditor` state: the editor's
 * error, and once the item is stored the language switch over its translations
 * (`languages`: the switch's label, its test id, and the text that makes a language written).
 */
export function AdminEditorModal<Stored extends { translations?: Translations | undefined }>({
  editor,
  dialog,
  languages,
  children,
  ...modal
}: {
  editor: ContentEditor<Stored>;
  dialog: Pick<EditorDialogProps, "open" | "onClose">;
  title: ReactNode;
  onOk: () => void | Promise<void>;
  okText?: string;
  width?: number;
  forceRender?: boolean;
  errorClassName: string;
  languages: { label: string; testId: string; writtenBy: string };
  children: ReactNode;
}) {
  const { stored } = editor;
  return (
    <ContentEditorModal
      {...modal}
      open={dialog.open}
      onCancel={dialog.onClose}
      error={editor.error}
      languages={
        stored === null
          ? null
          : {
              ...languages,
              value: editor.language,
              translations: stored.translations,
              onChange: editor.switchLanguage,
            }
      }
    >
      {children}
    </ContentEditorModal>
  );
}
