import { Button, Table, type TableProps } from "antd";
import type { ReactNode } from "react";

/** An admin page's failure message (nothing while `message` is empty). */
export function AdminError({ message, className }: { message: string; className: string }) {
  return message ? (
    <p role="alert" className={className}>
      {message}
    </p>
  ) : null;
}

/**
 * One part of an admin page: its heading (`id` labels the section for assistive tech and
 * the browser tests), an optional button to create a new item, then its table.
 * `classes` are the page's own stylesheet classes for the section and its head.
 */
export function AdminSection({
  id,
  title,
  classes,
  create,
  children,
}: {
  id: string;
  title: ReactNode;
  classes: { section: string; head: string };
  create?: { label: string; onClick: () => void };
  children: ReactNode;
}) {
  return (
    <section className={classes.section} aria-labelledby={id}>
      <div className={classes.head}>
        <h2 id={id}>{title}</h2>
        {create ? (
          <Button type="primary" onClick={create.onClick}>
            {create.label}
          </Button>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/** An admin page's table: antd's, small, scrolling sideways where the page is narrow. */
export function AdminTable<Row extends object>(props: TableProps<Row>) {
  return <Table<Row> size="small" scroll={{ x: true }} {...props} />;
}
