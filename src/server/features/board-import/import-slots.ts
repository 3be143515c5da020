/** A count of work running at once, up to a limit. */
export interface Slots {
  /** Takes a slot: false (and nothing taken) when all are taken. */
  acquire(): boolean;
  /** Gives back a slot taken by `acquire`. */
  release(): void;
}

/** `max` slots, counted in this process. */
export function countedSlots(max: number): Slots {
  let taken = 0;
  return {
    acquire() {
      if (taken >= max) return false;
      taken++;
      return true;
    },
    release() {
      if (taken > 0) taken--;
    },
  };
}
