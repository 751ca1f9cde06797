/**
 * A recovery code as the user may type it: ten letters of the server's alphabet (no 0/o,
 * 1/l/i), any case, a dash or space between the two halves or none (contracts'
 * `recoveryCodeSchema`; kept apart so the login page does not load the schema library).
 */
export const RECOVERY_CODE_PATTERN = /^\s*[a-hj-km-np-z2-9]{5}[- ]?[a-hj-km-np-z2-9]{5}\s*$/i;
