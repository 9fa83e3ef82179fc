/**
 * A binary min-heap over an array: push and pop in O(log n), peek in O(1). `before(a, b)` is true
 * when `a` must come out first. No dependency, no module state.
 */
export class MinHeap<T> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  peek(): T | undefined {
    return this.items[0]
  }

  push(item: T): void {
    const items = this.items
    items.push(item)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(items[i]!, items[parent]!)) break
      this.swap(i, parent)
      i = parent
    }
  }

  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    items[0] = last
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < items.length && this.before(items[left]!, items[smallest]!)) smallest = left
      if (right < items.length && this.before(items[right]!, items[smallest]!)) smallest = right
      if (smallest === i) break
      this.swap(i, smallest)
      i = smallest
    }
    return top
  }

  /** Empties the heap and returns what it held, in no particular order. */
  drain(): T[] {
    return this.items.splice(0)
  }

  private swap(a: number, b: number): void {
    const items = this.items
    const held = items[a]!
    items[a] = items[b]!
    items[b] = held
  }
}
