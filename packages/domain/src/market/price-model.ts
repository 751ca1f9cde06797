import { Prng } from "../prng.ts";

const MINUTES_PER_YEAR = 365 * 24 * 60;

export interface PriceModelParams {
  /** Annualised volatility of log returns, e.g. 0.6 for 60 %. */
  readonly annualVol: number;
  /** GARCH news weight per minute (default 0.08). */
  readonly alpha?: number;
  /** GARCH persistence per minute (default 0.9); alpha + beta < 1. */
  readonly beta?: number;
  /** Expected jumps per day (Poisson, default 2). */
  readonly jumpsPerDay?: number;
  /** Standard deviation of a jump's log size (default 0.004: rare, sharp moves that do not drown the clustering). */
  readonly jumpStd?: number;
}

/** One step of the model: where the log price went and the largest excursions on the way. */
export interface ModelStep {
  /** Log return of the step (diffusion plus jumps). */
  readonly logReturn: number;
  /** Log price at the end of the step. */
  readonly logClose: number;
  /** Highest and lowest log price within the step (>= / <= both ends). */
  readonly logHigh: number;
  readonly logLow: number;
  /** Activity relative to a calm step of the same length (>= ~0.3): drives volume. */
  readonly activity: number;
}

/**
 * A seeded GARCH(1,1) random walk in log price with Poisson jumps. Variance `h` is
 * per minute; a step of `dt` minutes draws `r = sqrt(h dt) z` and updates
 * `h <- (1 - phi) hbar + a r^2/dt + (phi - a) h` with `phi = (alpha + beta)^min(dt, 1)`
 * and `a = alpha (1 - phi) / (1 - alpha - beta)`: at dt = 1 this is textbook GARCH(1,1)
 * (omega = (1 - alpha - beta) hbar), and sub-minute ticks are its continuous limit, so
 * volatility clusters over tens of minutes whatever the tick rate. Steps longer than a
 * minute (history bars) update once per bar. Deterministic for a seed.
 */
export class PriceModel {
  private readonly prng: Prng;
  private readonly hbar: number;
  private readonly alpha: number;
  private readonly beta: number;
  private readonly jumpRatePerMin: number;
  private readonly jumpStd: number;
  private spare: number | undefined;
  /** Current log price. */
  logPrice: number;
  /** Current variance per minute. */
  variance: number;

  constructor(seed: number, startPrice: number, params: PriceModelParams) {
    if (!(startPrice > 0)) throw new RangeError("start price must be positive");
    this.prng = new Prng(seed);
    const sigmaMin = params.annualVol / Math.sqrt(MINUTES_PER_YEAR);
    this.hbar = sigmaMin * sigmaMin;
    this.alpha = params.alpha ?? 0.08;
    this.beta = params.beta ?? 0.9;
    if (!(this.alpha >= 0 && this.beta >= 0 && this.alpha + this.beta < 1)) {
      throw new RangeError("GARCH needs alpha, beta >= 0 and alpha + beta < 1");
    }
    this.jumpRatePerMin = (params.jumpsPerDay ?? 2) / 1440;
    this.jumpStd = params.jumpStd ?? 0.004;
    this.logPrice = Math.log(startPrice);
    this.variance = this.hbar;
  }

  /** Long-run variance per minute. */
  get longRunVariance(): number {
    return this.hbar;
  }

  /** A uniform float in [0, 1) from the model's stream (trade sizes, sides). */
  uniform(): number {
    return this.prng.next();
  }

  /** A standard normal draw (Box-Muller, the pair's second value kept). */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.prng.next();
    const v = this.prng.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  private poisson(lambda: number): number {
    // Knuth; lambda stays small (a few jumps per bar at most).
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.prng.next();
    while (p > limit) {
      k++;
      p *= this.prng.next();
    }
    return k;
  }

  /** Advances `dtMinutes` (> 0). */
  step(dtMinutes: number): ModelStep {
    const dt = dtMinutes > 0 ? dtMinutes : 1 / 240;
    const h = this.variance;
    const sd = Math.sqrt(h * dt);
    const diffusion = sd * this.normal();
    let jump = 0;
    const jumps = this.poisson(this.jumpRatePerMin * dt);
    for (let i = 0; i < jumps; i++) jump += this.jumpStd * this.normal();
    // The -h dt / 2 drift keeps the price (not its log) a martingale.
    const r = diffusion + jump - (h * dt) / 2;

    const open = this.logPrice;
    const close = open + r;
    // Excursions beyond the ends: about the expected Brownian-bridge overshoot.
    const up = sd * 0.6 * -Math.log(1 - this.prng.next());
    const down = sd * 0.6 * -Math.log(1 - this.prng.next());
    this.logPrice = close;

    const ratio = this.alpha + this.beta;
    const phi = ratio ** Math.min(dt, 1);
    const a = (this.alpha * (1 - phi)) / (1 - ratio);
    const next = (1 - phi) * this.hbar + a * ((diffusion * diffusion) / dt) + (phi - a) * h;
    // Bounded so one extreme draw cannot freeze or explode the path.
    this.variance = Math.min(this.hbar * 25, Math.max(this.hbar / 25, next));

    const calm = Math.sqrt(this.hbar * dt);
    const activity = 0.3 + 0.7 * (Math.abs(r) / calm + sd / calm) * 0.5;
    return {
      logReturn: r,
      logClose: close,
      logHigh: Math.max(open, close) + up,
      logLow: Math.min(open, close) - down,
      activity,
    };
  }

  /** Moves the whole path by a log offset (history is rescaled to end at the reference). */
  shift(logOffset: number): void {
    this.logPrice += logOffset;
  }
}
