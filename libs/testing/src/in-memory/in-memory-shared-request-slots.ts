import { SharedRequestSlots, SharedSlotUnavailable, type SlotHold, type SlotPriority } from '@app/providers';

interface Slot {
  held: boolean;
  /** Urgent requests waiting, in arrival order. */
  readonly waiting: Array<{ grant(): void }>;
}

/**
 * `SharedRequestSlots` in memory: one object is the store every "instance" shares (pass the same
 * one to each adapter of a test). Urgent requests wait in arrival order, for at most `waitMs`;
 * background work gets the slot only when it is free and no urgent request waits.
 */
export class InMemorySharedRequestSlots extends SharedRequestSlots {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly waitMs = 30_000) {
    super();
  }

  acquire(name: string, priority: SlotPriority): Promise<SlotHold | null> {
    const slot = this.slotOf(name);
    if (!slot.held && slot.waiting.length === 0) {
      slot.held = true;
      return Promise.resolve(this.holdOf(slot));
    }
    if (priority === 'background') return Promise.resolve(null);
    return new Promise<SlotHold>((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.holdOf(slot));
        },
      };
      const timer = setTimeout(() => {
        slot.waiting.splice(slot.waiting.indexOf(waiter), 1);
        reject(new SharedSlotUnavailable(`the shared request slot ${name} was not free within ${this.waitMs} ms`));
      }, this.waitMs);
      slot.waiting.push(waiter);
    });
  }

  private slotOf(name: string): Slot {
    let slot = this.slots.get(name);
    if (!slot) {
      slot = { held: false, waiting: [] };
      this.slots.set(name, slot);
    }
    return slot;
  }

  private holdOf(slot: Slot): SlotHold {
    let released = false;
    return {
      release: () => {
        if (!released) {
          released = true;
          const next = slot.waiting.shift();
          // The slot passes straight to the next urgent request in line.
          if (next) next.grant();
          else slot.held = false;
        }
        return Promise.resolve();
      },
    };
  }
}
