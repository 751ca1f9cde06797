/**
 * New-device check: what a login proved besides the password (an e-mail code for a
 * browser new to the account, a second factor, a QR confirmation), kept on the login
 * history line and on the device the login first saw, for the devices page and the history.
 */
export function up(): string[] {
  return [
    "ALTER TABLE login_history ADD COLUMN new_device INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE login_history ADD COLUMN verified_by TEXT",
    "ALTER TABLE account_devices ADD COLUMN verified_by TEXT",
  ];
}
