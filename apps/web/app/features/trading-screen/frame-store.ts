import { useSyncExternalStore } from "react";

/** A notification on the next animation frame (a timer where there are no frames: tests, the server). */
function nextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(fn);
  else setTimeout(fn, 16);
}

/**
 * Live data held outside React (market ticks, futures marks): a stream writes at its own
 * pace and listeners hear of it at most once per animation frame. Each component reads
 * only the slice it shows (`useFrameValue`), so a push re-renders what displays it, not
 * the screen around it.
 */
export class FrameStore<T> {
  private state: T;
  /** What the server rendered from: hydration reads it, whatever arrived since. */
  private readonly initial: T;
  private readonly listeners = new Set<() => void>();
  private pending = false;
  private readonly schedule: (fn: () => void) => void;

  constructor(initial: T, schedule: (fn: () => void) => void = nextFrame) {
    this.initial = initial;
    this.state = initial;
    this.schedule = schedule;
  }

  readonly getState = (): T => this.state;
  readonly getInitialState = (): T => this.initial;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(next: T): void {
    if (Object.is(next, this.state)) return;
    this.state = next;
    if (this.pending) return;
    this.pending = true;
    this.schedule(() => {
      this.pending = false;
      for (const listener of [...this.listeners]) listener();
    });
  }
}

/** The subscription of a paused reader: nothing to hear. */
const noSubscription = () => () => undefined;

/**
 * One slice of a store, re-read when it notifies (at most once a frame): the component
 * re-renders only when its slice changed. `select` must return a value held in the state
 * (or a primitive), never a new object. While `paused` (a pane hidden behind a phone tab)
 * the store's pushes re-render nothing; the slice is read afresh when it resumes.
 */
export function useFrameValue<T, V>(store: FrameStore<T>, select: (state: T) => V, paused = false): V {
  return useSyncExternalStore(
    paused ? noSubscription : store.subscribe,
    () => select(store.getState()),
    () => select(store.getInitialState()),
  );
}
