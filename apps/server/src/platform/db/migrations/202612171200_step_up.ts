/**
 * Step-up: when a session last proved a second factor (at its login, or on purpose before
 * a sensitive change); such changes accept a proof at most 5 minutes old.
 */
export function up(): string[] {
  return ["ALTER TABLE sessions ADD COLUMN stepped_up_at BIGINT"];
}
