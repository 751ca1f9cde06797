/**
 * A fresh client id for one order or transfer (`clientOrderId`, `clientTransferId`): the
 * server answers the command already stored under it rather than running it again, so
 * sending the same body with the same id twice is safe (docs/trading.md, "Retries").
 */
export const newClientId = (): string =>
  `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
