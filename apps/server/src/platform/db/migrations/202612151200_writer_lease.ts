import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * The trading writer's lease (docs/architecture.md, "Several instances"): one row, the
 * holder's instance id and the backend pid of its lease session (gone: the holder died),
 * the epoch each takeover increments, and when the lease lapses (epoch milliseconds of
 * the database's clock). Every trading commit on PostgreSQL
 * reads the epoch under a share lock, so a writer that was replaced can never commit.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE writer_lease (
      id INTEGER PRIMARY KEY,
      epoch ${t.bigint} NOT NULL,
      holder TEXT,
      holder_pid INTEGER,
      expires_at ${t.bigint} NOT NULL
    )`,
    "INSERT INTO writer_lease (id, epoch, holder, expires_at) VALUES (1, 0, NULL, 0)",
  ];
}
