/// A binary image (garment or not) with the morphology the photo recipe needs.
struct Mask: Equatable {
    let width: Int
    let height: Int
    var bits: [Bool]

    init(width: Int, height: Int, bits: [Bool]) {
        precondition(bits.count == width * height, "mask size does not match")
        self.width = width
        self.height = height
        self.bits = bits
    }

    init(width: Int, height: Int, value: Bool = false) {
        self.init(width: width, height: height, bits: [Bool](repeating: value, count: width * height))
    }

    var area: Int { bits.reduce(0) { $0 + ($1 ? 1 : 0) } }

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

    /// A 3x3 maximum (`any`) or minimum, as two separable passes of three.
    private func neighbourhood(any: Bool) -> Mask {
        let outside = !any
        var horizontal = [Bool](repeating: false, count: bits.count)
        var out = [Bool](repeating: false, count: bits.count)
        let width = self.width, height = self.height
        bits.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let left = x > 0 ? source[row + x - 1] : outside
                        let right = x < width - 1 ? source[row + x + 1] : outside
                        let centre = source[row + x]
                        target[row + x] = any ? (left || centre || right) : (left && centre && right)
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let up = y > 0 ? source[row - width + x] : outside
                        let down = y < height - 1 ? source[row + width + x] : outside
                        let centre = source[row + x]
                        target[row + x] = any ? (up || centre || down) : (up && centre && down)
                    }
                }
            }
        }
        return Mask(width: width, height: height, bits: out)
    }

    /// Unset regions not connected (4-neighbours) to the border become set: holes are filled.
    func holesFilled() -> Mask {
        var outside = [Bool](repeating: false, count: bits.count)
        var stack = [Int32](repeating: 0, count: bits.count)
        var top = 0
        let width = self.width, height = self.height
        bits.withUnsafeBufferPointer { bits in
            outside.withUnsafeMutableBufferPointer { outside in
                stack.withUnsafeMutableBufferPointer { stack in
                    func push(_ index: Int) {
                        if !bits[index] && !outside[index] { outside[index] = true; stack[top] = Int32(index); top += 1 }
                    }
                    for x in 0..<width { push(x); push((height - 1) * width + x) }
                    for y in 0..<height { push(y * width); push(y * width + width - 1) }
                    while top > 0 {
                        top -= 1
                        let index = Int(stack[top])
                        let x = index % width, y = index / width
                        if x > 0 { push(index - 1) }
                        if x < width - 1 { push(index + 1) }
                        if y > 0 { push(index - width) }
                        if y < height - 1 { push(index + width) }
                    }
                }
            }
        }
        for i in 0..<outside.count { outside[i].toggle() }
        return Mask(width: width, height: height, bits: outside)
    }

    /// The 8-connected component with the largest total of `weight` over its pixels.
    /// Works on runs of set pixels: runs in neighbouring rows that touch (diagonals included)
    /// are joined with a union-find, so the cost follows the number of runs, not pixels.
    func heaviestComponent(weight: [Float]) -> Mask {
        var runStart = [Int](), runEnd = [Int](), runRow = [Int](), rowFirstRun = [Int](repeating: 0, count: height + 1)
        var runWeight = [Float]()
        for y in 0..<height {
            rowFirstRun[y] = runStart.count
            var x = 0
            let row = y * width
            while x < width {
                guard bits[row + x] else { x += 1; continue }
                let start = x
                var total: Float = 0
                while x < width && bits[row + x] { total += weight[row + x]; x += 1 }
                runStart.append(start); runEnd.append(x - 1); runRow.append(y); runWeight.append(total)
            }
        }
        rowFirstRun[height] = runStart.count
        guard !runStart.isEmpty else { return Mask(width: width, height: height) }

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
        var out = [Bool](repeating: false, count: bits.count)
        for run in 0..<runStart.count where root(run) == best {
            let row = runRow[run] * width
            for x in runStart[run]...runEnd[run] { out[row + x] = true }
        }
        return Mask(width: width, height: height, bits: out)
    }
}
