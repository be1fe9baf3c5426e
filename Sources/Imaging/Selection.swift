/// The value at `rank` of `values` in ascending order (what sorting them and taking that index
/// gives), found by partitioning around a middle value (Hoare's) and keeping the side that
/// holds the rank, not by sorting them all. `values` is left reordered: every value after
/// `rank` is at least as large as the one at it, every value before it at most as large.
package func selectRank<Values: MutableCollection & RandomAccessCollection>(_ rank: Int, in values: inout Values) -> Values.Element
where Values.Element: Comparable, Values.Index == Int {
    precondition(values.indices.contains(rank), "the rank is one of the values'")
    var low = values.startIndex, high = values.endIndex - 1
    while low < high {
        let pivot = values[(low + high) / 2]
        var i = low, j = high
        while i <= j {
            while values[i] < pivot { i += 1 }
            while pivot < values[j] { j -= 1 }
            if i <= j {
                values.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
        if rank <= j { high = j } else if rank >= i { low = i } else { break }
    }
    return values[rank]
}
