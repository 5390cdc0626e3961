/** Selecting the best few of many scored indices without sorting them all. */

/** The `k` indices with the highest votes (ties: lower index first), via a bounded min-heap. */
export const topK = (indices: ReadonlyArray<number>, votes: Float64Array, k: number): Array<number> => {
  const heap: Array<number> = []
  // "a ranks below b": fewer votes, or equal votes and a higher index.
  const below = (a: number, b: number) => votes[a]! < votes[b]! || (votes[a] === votes[b] && a > b)
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!below(heap[i]!, heap[p]!)) break
      ;[heap[i], heap[p]] = [heap[p]!, heap[i]!]
      i = p
    }
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < heap.length && below(heap[l]!, heap[m]!)) m = l
      if (r < heap.length && below(heap[r]!, heap[m]!)) m = r
      if (m === i) return
      ;[heap[i], heap[m]] = [heap[m]!, heap[i]!]
      i = m
    }
  }
  for (const i of indices) {
    if (heap.length < k) {
      heap.push(i)
      up(heap.length - 1)
    } else if (below(heap[0]!, i)) {
      heap[0] = i
      down(0)
    }
  }
  return heap.sort((a, b) => votes[b]! - votes[a]! || a - b)
}
