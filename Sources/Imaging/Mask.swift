/// A binary image (garment or not) with the morphology the photo recipe needs.
///
/// The photo recipe runs these a dozen times per image on its working copy, so each works on
/// the bits as bytes through raw buffers, in passes the compiler can vectorise, with no
/// allocation per pixel. They are pure set operations: however they run, the result is the
/// same mask.
package struct Mask: Equatable {
    let width: Int
    let height: Int
    var bits: [Bool]

    package init(width: Int, height: Int, bits: [Bool]) {
        precondition(bits.count == width * height, "mask size does not match")
        self.width = width
        self.height = height
        self.bits = bits
    }

    init(width: Int, height: Int, value: Bool = false) {
        self.init(width: width, height: height, bits: [Bool](repeating: value, count: width * height))
    }

    /// A mask whose bits `fill` sets, as bytes 0 or 1 (they start at 0, unset).
    init(width: Int, height: Int, filling fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        var bits = [Bool](repeating: false, count: width * height)
        bits.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: UInt8.self, fill) }
        self.init(width: width, height: height, bits: bits)
    }

    /// The bits as bytes, 0 or 1.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bits.withUnsafeBufferPointer { $0.withMemoryRebound(to: UInt8.self, body) }
    }

    var area: Int {
        withBytes { bytes in
            var total = 0
            for i in 0..<bytes.count { total += Int(bytes[i]) }
            return total
        }
    }

    /// The smallest rectangle holding every set pixel; nil for an empty mask.
    var boundingBox: PixelRect? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where bits[y * width + x] {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// 3x3 maximum. Pixels outside the image count as unset.
    func dilated() -> Mask { neighbourhood(any: true) }

    /// 3x3 minimum. Pixels outside the image count as set, so a garment touching the border
    /// does not lose its edge.
    func eroded() -> Mask { neighbourhood(any: false) }

    func closed() -> Mask { dilated().eroded() }
    func opened() -> Mask { eroded().dilated() }

    /// A 3x3 maximum (`any`) or minimum, as two separable passes of three: across each row,
    /// then down each column, on bytes (or / and of 0s and 1s).
    private func neighbourhood(any: Bool) -> Mask {
        let width = self.width, height = self.height
        let outside: UInt8 = any ? 0 : 1
        @inline(__always) func combine(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 { any ? a | b | c : a & b & c }
        let horizontal = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height)
        defer { horizontal.deallocate() }
        withBytes { source in
            for y in 0..<height {
                let s = source.baseAddress! + y * width, t = horizontal.baseAddress! + y * width
                if width == 1 { t[0] = combine(outside, s[0], outside); continue }
                t[0] = combine(outside, s[0], s[1])
                if any {
                    for x in 1..<(width - 1) { t[x] = s[x - 1] | s[x] | s[x + 1] }
                } else {
                    for x in 1..<(width - 1) { t[x] = s[x - 1] & s[x] & s[x + 1] }
                }
                t[width - 1] = combine(s[width - 2], s[width - 1], outside)
            }
        }
        let outsideRow = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width)
        defer { outsideRow.deallocate() }
        outsideRow.initialize(repeating: outside)
        return Mask(width: width, height: height) { target in
            let rows = horizontal.baseAddress!
            for y in 0..<height {
                let up = y > 0 ? rows + (y - 1) * width : outsideRow.baseAddress!
                let down = y < height - 1 ? rows + (y + 1) * width : outsideRow.baseAddress!
                let centre = rows + y * width, t = target.baseAddress! + y * width
                if any {
                    for x in 0..<width { t[x] = up[x] | centre[x] | down[x] }
                } else {
                    for x in 0..<width { t[x] = up[x] & centre[x] & down[x] }
                }
            }
        }
    }

    /// Unset regions not connected (4-neighbours) to the border become set: holes are filled.
    /// A flood through the unset pixels from those on the border, on a copy framed by one
    /// pixel that counts as already reached, so no step needs a bounds check.
    func holesFilled() -> Mask {
        let width = self.width, height = self.height
        let framedWidth = width + 2
        // 0: unset, not yet reached; 1: set, or the frame; 2: unset and reached from the border.
        let state = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: framedWidth * (height + 2))
        defer { state.deallocate() }
        state.initialize(repeating: 1)
        withBytes { source in
            for y in 0..<height {
                let s = source.baseAddress! + y * width, t = state.baseAddress! + (y + 1) * framedWidth + 1
                for x in 0..<width { t[x] = s[x] }
            }
        }
        let stack = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width * height)
        defer { stack.deallocate() }
        var top = 0
        let cells = state.baseAddress!, pending = stack.baseAddress!
        @inline(__always) func push(_ index: Int) {
            if cells[index] == 0 { cells[index] = 2; pending[top] = Int32(index); top += 1 }
        }
        for x in 0..<width {
            push(framedWidth + 1 + x)
            push(height * framedWidth + 1 + x)
        }
        for y in 0..<height {
            push((y + 1) * framedWidth + 1)
            push((y + 1) * framedWidth + width)
        }
        while top > 0 {
            top -= 1
            let index = Int(pending[top])
            push(index - 1)
            push(index + 1)
            push(index - framedWidth)
            push(index + framedWidth)
        }
        return Mask(width: width, height: height) { target in
            for y in 0..<height {
                let s = cells + (y + 1) * framedWidth + 1, t = target.baseAddress! + y * width
                for x in 0..<width { t[x] = s[x] == 2 ? 0 : 1 }
            }
        }
    }

    /// The 8-connected component with the largest total of `weight` over its pixels.
    /// Works on runs of set pixels: runs in neighbouring rows that touch (diagonals included)
    /// are joined with a union-find, so the cost follows the number of runs, not pixels.
    /// A run's weight is summed left to right, and a component's total over its runs in
    /// order of their starts (row by row), so the totals, and which one is largest, do not
    /// depend on how the runs are found.
    func heaviestComponent(weight: [Float]) -> Mask {
        let width = self.width, height = self.height
        var runStart = [Int](), runEnd = [Int](), runRow = [Int](), rowFirstRun = [Int](repeating: 0, count: height + 1)
        var runWeight = [Float]()
        let expected = height * 4
        runStart.reserveCapacity(expected); runEnd.reserveCapacity(expected)
        runRow.reserveCapacity(expected); runWeight.reserveCapacity(expected)
        withBytes { bits in
            weight.withUnsafeBufferPointer { weight in
                for y in 0..<height {
                    rowFirstRun[y] = runStart.count
                    var x = 0
                    let row = y * width
                    while x < width {
                        guard bits[row + x] != 0 else { x += 1; continue }
                        let start = x
                        var total: Float = 0
                        while x < width && bits[row + x] != 0 { total += weight[row + x]; x += 1 }
                        runStart.append(start); runEnd.append(x - 1); runRow.append(y); runWeight.append(total)
                    }
                }
            }
        }
        rowFirstRun[height] = runStart.count
        guard !runStart.isEmpty else { return Mask(width: width, height: height) }

        // Each root is the first run of its component (unions keep the smaller root).
        var parent = Array(0..<runStart.count)
        func root(_ run: Int) -> Int {
            var r = run
            while parent[r] != r { parent[r] = parent[parent[r]]; r = parent[r] }
            return r
        }
        for y in 1..<max(1, height) {
            var above = rowFirstRun[y - 1]
            let aboveEnd = rowFirstRun[y]
            for run in rowFirstRun[y]..<rowFirstRun[y + 1] {
                // Skip runs above that end before this one can touch them.
                while above < aboveEnd && runEnd[above] + 1 < runStart[run] { above += 1 }
                var candidate = above
                while candidate < aboveEnd && runStart[candidate] <= runEnd[run] + 1 {
                    let a = root(candidate), b = root(run)
                    if a != b { parent[max(a, b)] = min(a, b) }
                    candidate += 1
                }
            }
        }
        var totals = [Float](repeating: 0, count: runStart.count)
        for run in 0..<runStart.count { totals[root(run)] += runWeight[run] }
        var best = 0
        for run in 0..<runStart.count where totals[run] > totals[best] { best = run }
        return Mask(width: width, height: height) { target in
            for run in 0..<runStart.count where root(run) == best {
                let row = target.baseAddress! + runRow[run] * width
                (row + runStart[run]).update(repeating: 1, count: runEnd[run] - runStart[run] + 1)
            }
        }
    }
}
