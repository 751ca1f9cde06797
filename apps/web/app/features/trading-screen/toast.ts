/** The spec's toast default (section 9): a toast stays three seconds. */
export const TOAST_SECONDS = 3;

type Kind = "success" | "error" | "info";

/**
 * A short toast for the outcome of an action (an order placed, cancelled or refused).
 * antd's message loads only when the first toast is due: the trading pages ship no antd
 * to a visitor, and a paper trader's first order is the first time one is needed.
 */
export function toast(kind: Kind, text: string): void {
  void import("antd/es/message").then(({ default: message }) => {
    message[kind]({ content: text, duration: TOAST_SECONDS, className: `mer-toast is-${kind}` });
  });
}
