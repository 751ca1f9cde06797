import { getLocale, LOCALES } from "@meridian/contracts/locales";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";

import { FIAT_STORAGE_KEY } from "./storage-keys.ts";

export { FIAT_STORAGE_KEY };

/** Fiat currencies offered: every locale's default, in first-seen order. */
export const FIAT_CURRENCIES: readonly string[] = [...new Set(LOCALES.map((l) => l.defaultCurrency))];

export function isFiatCurrency(value: unknown): value is string {
  return typeof value === "string" && FIAT_CURRENCIES.includes(value);
}

interface FiatContextValue {
  /** ISO 4217 code prices should be shown in. */
  fiat: string;
  setFiat: (fiat: string) => void;
}

const FiatContext = createContext<FiatContextValue | null>(null);

function readStoredFiat(): string | undefined {
  try {
    const stored = window.localStorage.getItem(FIAT_STORAGE_KEY);
    return isFiatCurrency(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Holds the visitor's fiat currency: the stored choice, else the locale's default. The
 * server renders the locale default; the stored choice applies after hydration.
 */
export function FiatProvider({ locale, children }: { locale: string; children: ReactNode }) {
  const fallback = getLocale(locale).defaultCurrency;
  const [stored, setStored] = useState<string | undefined>(undefined);

  useEffect(() => {
    setStored(readStoredFiat());
  }, []);

  const setFiat = useCallback((fiat: string) => {
    if (!isFiatCurrency(fiat)) return;
    setStored(fiat);
    try {
      window.localStorage.setItem(FIAT_STORAGE_KEY, fiat);
    } catch {
      // Storage may be full or blocked; the choice still holds for this page.
    }
  }, []);

  const value = useMemo(() => ({ fiat: stored ?? fallback, setFiat }), [stored, fallback, setFiat]);
  return <FiatContext.Provider value={value}>{children}</FiatContext.Provider>;
}

/** The fiat currency prices should use, and its setter. Needs a FiatProvider above. */
export function useFiat(): FiatContextValue {
  const value = useContext(FiatContext);
  if (!value) throw new Error("useFiat needs a <FiatProvider> (the shell providers include one)");
  return value;
}
