import { Button } from "antd";
import { type ReactNode, useCallback } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { type ApiData, useApiData } from "../../../lib/use-api-data.ts";
import { type ListAction, ListFrame, type ListRead, useListAction } from "../../../ui/list-frame.tsx";
import { failureText } from "./security-shell.tsx";

/** A list of the account's credentials as read, and the state of the actions on it. */
export interface Credentials<A> {
  list: ApiData<A>;
  action: ListAction;
}

/**
 * Reads a list of the account's credentials from `path` (quietly: the list shows its
 * own failure) with the state of its actions, whose failures are worded for the page.
 */
export function useCredentials<A>(path: string): Credentials<A> {
  const { t } = useTranslation("account");
  const load = useCallback(() => accountClient().api.get<A>(path, undefined, { silent: true }), [path]);
  const list = useApiData(load);
  const action = useListAction(list.reload, (err) => failureText(err, t));
  return { list, action };
}

export interface CredentialListProps<T> {
  read: ListRead;
  /** The credentials read; undefined until the first answer. */
  items: readonly T[] | undefined;
  action: ListAction;
  itemKey: (item: T) => string;
  /** What an empty list says. */
  empty: ReactNode;
  /** `ListFrame`'s test ids (`<testId>-list`, `-notice`, `-error` or `errorTestId`). */
  testId: string;
  errorTestId?: string;
  /** The test id of each row. */
  itemTestId: string;
  /** A row's first line: the credential's name. */
  name: (item: T) => ReactNode;
  /** A row's second line: when it was added and last used. */
  meta: (item: T) => ReactNode;
  /** The row's button (remove, unlink): its text, test id and action, which answers the notice. */
  remove: { label: string; testId: string; run: (item: T) => Promise<string> };
}

/**
 * A list of the ways into the account (passkeys, linked sign-ins): each row names one,
 * says when it was added and last used, and has a button that removes it.
 */
export function CredentialList<T>(props: CredentialListProps<T>) {
  const { action, remove } = props;
  return (
    <ListFrame
      read={props.read}
      items={props.items}
      itemKey={props.itemKey}
      itemProps={() => ({ "data-testid": props.itemTestId })}
      empty={props.empty}
      notice={action.notice}
      error={action.error}
      testId={props.testId}
      errorTestId={props.errorTestId}
      renderItem={(item) => (
        <>
          <span>
            {props.name(item)}
            <br />
            <span className="security-device-meta">{props.meta(item)}</span>
          </span>
          <Button
            danger
            size="small"
            disabled={action.busy}
            onClick={() => void action.run(() => remove.run(item))}
            data-testid={remove.testId}
          >
            {remove.label}
          </Button>
        </>
      )}
    />
  );
}
